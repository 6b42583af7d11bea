import CacheCore

/// A named engine configuration reproducing a real library's cache, with parameters for its
/// limits. Each preset is one file in `Presets/` and one line in ``EnginePreset/all``.
public struct EnginePreset: RegistryEntry {
  public let name: String
  /// One line for `cachelab presets`.
  public let summary: String
  /// The library version or source the rules come from.
  public let origin: String
  public let parameters: [ParameterSpec]
  /// Every rule the preset models, with the source file (and function) it comes from.
  public let modelled: [String]
  /// Rules of the library the preset knowingly does not model, so users know its limits.
  public let notModelled: [String]
  let build: @Sendable (Parameters) -> EngineConfiguration

  /// A preset: `build` turns validated parameters into the engine (see ``EngineConfiguration``).
  public init(
    name: String, summary: String, origin: String, parameters: [ParameterSpec] = [], modelled: [String],
    notModelled: [String], build: @escaping @Sendable (Parameters) -> EngineConfiguration
  ) {
    self.name = name
    self.summary = summary
    self.origin = origin
    self.parameters = parameters
    self.modelled = modelled
    self.notModelled = notModelled
    self.build = build
  }

  /// Presets have no aliases.
  public var aliases: [String] { [] }

  /// The registry: every built-in preset, in the order `cachelab presets` lists them.
  public static let registry = Registry<EnginePreset>(
    kind: "preset", plural: "presets",
    [
      .mknetworkkit,
      .mknetworkkitIntended,
      .sdwebimage,
      .afnetworking,
      .nscacheLinux,
      .urlcacheLinux,
      .kingfisher,
      .nuke,
      .pincache,
      .zzdiskcache,
      .nginx,
      .squid,
      .varnish,
    ])

  /// Every preset, in listing order.
  public static var all: [EnginePreset] { registry.all }

  /// Adds a preset defined outside CacheLab, after the built-ins (then `--preset NAME` and
  /// ``PresetSpec`` accept it).
  ///
  /// - Throws: `ConfigurationError` when its name is taken.
  public static func register(_ preset: EnginePreset) throws(ConfigurationError) {
    try registry.register(preset)
  }

  /// The preset named `name`.
  ///
  /// - Throws: `ConfigurationError` listing the known presets.
  public static func named(_ name: String) throws(ConfigurationError) -> EnginePreset {
    try registry.named(name)
  }

  /// The configuration with `parameters`.
  public func configuration(_ parameters: Parameters) -> EngineConfiguration {
    build(parameters)
  }
}

/// A preset chosen on the command line: `name` or `name:key=value,...`.
public struct PresetSpec: Sendable, CustomStringConvertible {
  public let preset: EnginePreset
  public let parameters: Parameters

  public init(parsing text: String) throws(ConfigurationError) {
    (preset, parameters) = try EnginePreset.registry.parse(text)
  }

  /// Splits a `--preset` list (commas separate presets; `key=value` items continue the
  /// previous preset's parameters).
  public static func parseList(_ text: String) throws(ConfigurationError) -> [PresetSpec] {
    var groups: [String] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let token = String(item).filter { $0 != " " }
      if token.contains("="), !token.contains(":"), let last = groups.popLast() {
        groups.append(last + (last.contains(":") ? "," : ":") + token)
      } else {
        guard !token.isEmpty else { throw ConfigurationError(.invalidValue, "empty preset name in '\(text)'") }
        groups.append(token)
      }
    }
    var result: [PresetSpec] = []
    for group in groups { result.append(try PresetSpec(parsing: group)) }
    return result
  }

  public var configuration: EngineConfiguration { preset.configuration(parameters) }

  public var description: String {
    let explicit = parameters.specs.filter { parameters.isExplicit($0.name) }
    guard !explicit.isEmpty else { return preset.name }
    return preset.name + ":" + explicit.map { "\($0.name)=\(parameters.string($0.name))" }.joined(separator: ",")
  }
}

/// Shorthands for building preset tiers.
extension TierConfiguration {
  /// A tier of registered policy `policy` (with `parameters`), `capacity` 0 meaning unlimited.
  static func preset(
    _ policy: String, _ capacity: Int64, unit: CapacityUnit = .bytes, expiry: ExpiryModel = .none,
    admissionLimit: Double? = nil, blockSize: Int64 = 0, readsUpdateAccessDate: Bool = true
  ) -> TierConfiguration {
    // Preset policy names are fixed and valid.
    let spec = (try? PolicySpec(parsing: policy))!
    return TierConfiguration(
      policy: spec, capacity: capacity > 0 ? capacity : .max, unit: unit, expiry: expiry,
      admissionLimit: admissionLimit, blockSize: blockSize, readsUpdateAccessDate: readsUpdateAccessDate)
  }
}

extension Int64 {
  /// `self + other`, clamped to the representable range (times near the trace limit plus
  /// extreme header values).
  @inlinable func addingSaturated(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}

/// Common preset values.
enum PresetDefaults {
  /// File-system allocation block for libraries that count allocated bytes.
  static let block: Int64 = 4096
}
