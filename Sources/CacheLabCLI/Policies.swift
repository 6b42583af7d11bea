import ArgumentParser
import CacheCore

/// `cachelab policies`: the registry, with parameters and defaults.
struct Policies: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "policies",
    abstract: "List the eviction policies with their parameters and defaults.",
    discussion: "Examples:\n  cachelab policies\n  cachelab policies --details\n  cachelab policies --json\n")

  @Flag(help: "Also show each policy's origin and memory per object.")
  var details = false

  @Flag(help: "Print only the names, comma-separated (for scripts).")
  var names = false

  @Flag(help: "Print the policy table of docs/policies.md (Markdown), generated from the registry.")
  var markdown = false

  @Flag(help: "Print every policy with its parameters and libCacheSim counterparts as JSON (for scripts).")
  var json = false

  func run() {
    if names {
      print(PolicyRegistry.all.map(\.name).joined(separator: ","))
    } else if json {
      print(PolicyCatalog.json(), terminator: "")
    } else if markdown {
      print(Self.markdown(), terminator: "")
    } else {
      print(Self.listing(details: details), terminator: "")
    }
  }

  static func listing(details: Bool) -> String {
    PolicyRegistry.registry.listing(
      parameter: { "\($0.name)=\($0.defaultValue)  \($0.help) (\($0.valueDescription))" },
      details: { entry in
        (entry.aliases.isEmpty ? [] : ["aliases: \(entry.aliases.joined(separator: ", "))"])
          + (details
            ? ["origin: \(entry.descriptor.origin)", "memory per object: \(entry.descriptor.memoryPerObject)"] : [])
      })
  }

  /// The policy table of docs/policies.md: name, parameters with defaults and aliases, summary, origin,
  /// memory per object.
  static func markdown() -> String {
    PolicyRegistry.registry.markdownTable([
      ("name", { "`\($0.name)`" }), ("parameters (defaults)", \.parametersCell), ("what it does", \.summary),
      ("origin", \.descriptor.origin), ("memory / object", \.descriptor.memoryPerObject),
    ])
  }
}
