import ArgumentParser
import CacheCore

/// `cachelab admissions`: the admission policies `--admission` accepts, with their parameters.
struct Admissions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "admissions",
    abstract: "List the admission policies (--admission) with their parameters and defaults.",
    discussion:
      "Examples:\n  cachelab admissions\n  cachelab run --trace T --policies lru,s3fifo --sizes 0.1 --admission none,bloom-filter,size:threshold=64KiB\n"
  )

  @Flag(help: "Also show each admission policy's origin and memory.")
  var details = false

  @Flag(help: "Print the admission table of docs/policies.md (Markdown), generated from the registry.")
  var markdown = false

  func run() {
    print(markdown ? Self.markdown() : Self.listing(details: details), terminator: "")
  }

  static func listing(details: Bool) -> String {
    AdmissionRegistry.registry.listing(
      parameter: { "\($0.name)=\($0.defaultValue)  \($0.help) (\($0.valueDescription))" },
      details: { entry in
        (entry.aliases.isEmpty ? [] : ["aliases: \(entry.aliases.joined(separator: ", "))"])
          + (details ? ["origin: \(entry.descriptor.origin)", "memory: \(entry.descriptor.memoryPerObject)"] : [])
      })
  }

  /// The admission table of docs/policies.md: name, parameters with defaults and aliases, summary, origin.
  static func markdown() -> String {
    AdmissionRegistry.registry.markdownTable([
      ("name", { "`\($0.name)`" }), ("parameters (defaults)", \.parametersCell), ("what it does", \.summary),
      ("origin", \.descriptor.origin), ("memory", \.descriptor.memoryPerObject),
    ])
  }
}
