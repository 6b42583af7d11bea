import ArgumentParser
import Engine

/// `cachelab profiles`: the named latency profiles with their settings and sources.
struct Profiles: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profiles", abstract: "List the named latency profiles (networks and disks) and their sources.",
    discussion:
      "A profile sets some latency keys (see --latency on run); --latency-profile applies profiles in order over "
      + "the defaults, then --latency over them. Network profiles set the origin's cost, which then replaces the "
      + "trace's own latency (add --latency origin=trace to keep the trace's round trips with the profile's "
      + "bandwidth).\n\nExamples:\n  cachelab profiles --details\n  cachelab profiles --markdown > profiles.md\n"
      + "  cachelab run --trace Traces/http-demo.cachelab.csv --preset nuke --latency-profile chrome-devtools-slow-4g\n"
  )

  @Flag(help: "Also show each profile's kind, settings and source.")
  var details = false

  @Flag(help: "Print only the names, comma-separated (for scripts).")
  var names = false

  @Flag(help: "Print docs/latency.md's profile table (Markdown), generated from the profiles.")
  var markdown = false

  func run() {
    if names {
      print(LatencyProfile.all.map(\.name).joined(separator: ","))
      return
    }
    if markdown {
      print(Self.markdown(), terminator: "")
      return
    }
    print(
      LatencyProfile.registry.listing(details: { profile in
        details ? ["kind: \(profile.kind.rawValue)", "sets: \(profile.spec)", "source: \(profile.source)"] : []
      }), terminator: "")
  }

  /// The profile table of docs/latency.md.
  static func markdown() -> String {
    LatencyProfile.registry.markdownTable([
      ("profile", { "`\($0.name)`" }), ("kind", \.kind.rawValue), ("sets", { "`\($0.spec)`" }),
      ("what it models", \.summary), ("source", \.source),
    ])
  }
}
