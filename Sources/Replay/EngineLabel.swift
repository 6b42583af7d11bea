/// What an engine of a run is called in its results and reports: a preset with its parameters
/// as written (`preset:nuke:memory=64MiB`), or the custom engine built from `--memory`/`--disk`
/// (`engine`).
public enum EngineLabel: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// A preset, by its specification as written (`nuke:memory=64MiB`).
  case preset(String)
  /// The engine built from the command line's tier options.
  case custom

  static let presetPrefix = "preset:"
  static let customText = "engine"

  /// The label of a report's `policy` cell, or nil when the cell names a policy run.
  public init?(parsing text: String) {
    if text == Self.customText {
      self = .custom
    } else if text.hasPrefix(Self.presetPrefix) {
      self = .preset(String(text.dropFirst(Self.presetPrefix.count)))
    } else {
      return nil
    }
  }

  /// `preset:SPEC` or `engine`: the report's `policy` cell.
  public var description: String {
    switch self {
    case .preset(let spec): Self.presetPrefix + spec
    case .custom: Self.customText
    }
  }

  /// The preset's specification, or `engine`: a name for the engine's store folder.
  public var bareName: String {
    switch self {
    case .preset(let spec): spec
    case .custom: Self.customText
    }
  }
}
