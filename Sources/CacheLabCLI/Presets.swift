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

  @Flag(help: "Print the README's preset table and rule lists (Markdown), generated from the presets.")
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
    var text = ""
    let width = EnginePreset.all.map(\.name.count).max() ?? 0
    for preset in EnginePreset.all {
      text += preset.name.padding(width) + "  " + preset.summary + "\n"
      let indent = String(repeating: " ", count: width + 2)
      for parameter in preset.parameters {
        text += "\(indent)\(parameter.name)=\(parameter.defaultValue)  \(parameter.help)\n"
      }
      if details {
        text += "\(indent)source: \(preset.origin)\n"
        // Default parameters always validate.
        if let defaults = try? PresetSpec(parsing: preset.name) {
          text += "\(indent)engine: \(defaults.configuration.summary)\n"
        }
        text += "\(indent)modelled:\n"
        for rule in preset.modelled { text += "\(indent)  - \(rule)\n" }
        text += "\(indent)not modelled:\n"
        for rule in preset.notModelled { text += "\(indent)  - \(rule)\n" }
      }
    }
    return text
  }
}

extension Presets {
  /// The README's preset section: one table row per preset (parameters with defaults, summary,
  /// source), then each preset's modelled and knowingly unmodelled rules.
  static func markdown() -> String {
    var text = "| preset | parameters (defaults) | what it models | source |\n|---|---|---|---|\n"
    for preset in EnginePreset.all {
      let parameters = preset.parameters.map { "`\($0.name)=\($0.defaultValue)`" }.joined(separator: ", ")
      text += "| `\(preset.name)` | \(parameters.isEmpty ? "—" : parameters) | \(preset.summary) | \(preset.origin) |\n"
    }
    for preset in EnginePreset.all {
      text += "\n#### `\(preset.name)` rules\n\nModelled:\n\n"
      for rule in preset.modelled { text += "- \(rule)\n" }
      text += "\nKnowingly not modelled:\n\n"
      for rule in preset.notModelled { text += "- \(rule)\n" }
    }
    return text
  }
}

extension String {
  /// The string padded with spaces to `width` characters.
  func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
