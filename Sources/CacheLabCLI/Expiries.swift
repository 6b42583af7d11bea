import ArgumentParser
import CacheCore
import Engine

/// `cachelab expiries`: the expiry rules `--expiry` accepts, with their parameters.
struct Expiries: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "expiries",
    abstract: "List the expiry rules (--expiry) with their parameters.",
    discussion:
      "Examples:\n  cachelab expiries\n  cachelab run --trace T --memory lru:64MiB --expiry ttl:300s,sliding\n")

  @Flag(help: "Print the expiry table of docs/engine.md (Markdown), generated from the registry.")
  var markdown = false

  func run() {
    print(markdown ? Self.markdown() : Self.listing(), terminator: "")
  }

  static func listing() -> String {
    ExpiryModel.registry.listing()
  }

  /// The expiry table of docs/engine.md: name, parameters with defaults, the shorthand, what it does.
  static func markdown() -> String {
    ExpiryModel.registry.markdownTable([
      ("rule", { "`\($0.name)`" }), ("parameters (defaults)", \.parametersCell),
      ("shorthand", { $0.positional.map { "`\($0)` by position" } ?? "—" }), ("what it does", \.summary),
    ])
  }
}
