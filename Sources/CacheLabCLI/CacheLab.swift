import ArgumentParser

/// The `cachelab` command: configuration and subcommands only.
public struct CacheLab: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "cachelab",
    abstract: "Cache-policy simulator and benchmark suite.",
    discussion: """
      Replays request traces through eviction policies and cache sizes and reports hit \
      ratios, miss bytes and simulator speed. Bad arguments exit 64; unreadable or \
      malformed input files exit 1 with 'path:line: message'.
      """,
    version: "0.1.0",
    subcommands: [
      Run.self, Sweep.self, Compare.self, Merge.self, Inspect.self, Regress.self, Gen.self, Policies.self, Presets.self,
      Formats.self,
    ]
  )

  public init() {}
}
