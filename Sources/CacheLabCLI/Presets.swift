import ArgumentParser
import Engine

/// `cachelab presets`: the library presets with their parameters.
struct Presets: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets", abstract: "List the engine presets that reproduce real library caches.",
    discussion: "Examples:\n  cachelab presets --details\n  cachelab presets --markdown > presets.md\n")

  @Flag(
    help:
      "Also show each preset's source (library version and files), tiers, every rule it models and every rule it knowingly does not."
  )
  var details = false

  @Flag(help: "Print only the names, comma-separated (for scripts).")
  var names = false

  @Flag(help: "Print docs/presets.md's preset table and rule lists (Markdown), generated from the presets.")
  var markdown = false

  func run() {
    if names {
      print(EnginePreset.all.map(\.name).joined(separator: ","))
      return
    }
    if markdown {
      print(Self.markdown(), terminator: "")
      return
    }
    print(Self.listing(details: details), terminator: "")
  }

  static func listing(details: Bool) -> String {
    EnginePreset.registry.listing(details: { preset in
      guard details else { return [] }
      // Default parameters always validate.
      let engine = (try? PresetSpec(parsing: preset.name)).map { ["engine: \($0.configuration.summary)"] } ?? []
      return ["source: \(preset.origin)"] + engine + ["modelled:"] + preset.modelled.map { "  - \($0)" }
        + ["not modelled:"] + preset.notModelled.map { "  - \($0)" }
    })
  }
}

extension Presets {
  /// The preset section of docs/presets.md: one table row per preset (parameters with defaults, summary,
  /// source), then each preset's modelled and knowingly unmodelled rules.
  static func markdown() -> String {
    var text = EnginePreset.registry.markdownTable([
      ("preset", { "`\($0.name)`" }), ("parameters (defaults)", \.parametersCell), ("what it models", \.summary),
      ("source", \.origin),
    ])
    for preset in EnginePreset.all {
      text += "\n#### `\(preset.name)` rules\n\nModelled:\n\n"
      for rule in preset.modelled { text += "- \(rule)\n" }
      text += "\nKnowingly not modelled:\n\n"
      for rule in preset.notModelled { text += "- \(rule)\n" }
    }
    return text
  }
}
