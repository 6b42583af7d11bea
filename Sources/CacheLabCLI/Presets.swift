import ArgumentParser
import Engine

/// `cachelab presets`: the library presets with their parameters.
struct Presets: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets", abstract: "List the engine presets that reproduce real library caches.")

  @Flag(help: "Also show each preset's source, tiers and rules.")
  var details = false

  @Flag(help: "Print only the names, comma-separated (for scripts).")
  var names = false

  func run() {
    if names {
      print(EnginePreset.all.map(\.name).joined(separator: ","))
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
        text += "\(indent)origin: \(preset.origin)\n"
        // Default parameters always validate.
        if let defaults = try? PresetSpec(parsing: preset.name) {
          text += "\(indent)engine: \(defaults.configuration.summary)\n"
        }
      }
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
