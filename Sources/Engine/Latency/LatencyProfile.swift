import CacheCore

/// A named set of latency settings for a device or a network, with where its figures come
/// from: what `--latency-profile NAME` applies and `cachelab profiles` lists.
public struct LatencyProfile: RegistryEntry {
  /// What a profile describes: the network to the origin, or the disk under the disk tier.
  public enum Kind: String, Sendable {
    case network, disk
  }

  public var name: String
  public var aliases: [String] = []
  public var summary: String
  public var kind: Kind
  /// The settings, as a `--latency` SPEC.
  public var spec: String
  /// Where the figures come from: a repository at a commit with file and lines, or a
  /// datasheet with its table.
  public var source: String
  public var parameters: [ParameterSpec] { [] }

  public init(name: String, summary: String, kind: Kind, spec: String, source: String) {
    self.name = name
    self.summary = summary
    self.kind = kind
    self.spec = spec
    self.source = source
  }

  /// The settings parsed.
  ///
  /// - Throws: `ConfigurationError` when `spec` is no SPEC (a registered profile's mistake).
  public func settings() throws(ConfigurationError) -> LatencySpec {
    do { return try LatencySpec(parsing: spec) } catch {
      throw ConfigurationError(error.code, "latency profile '\(name)': \(error.message)")
    }
  }

  /// The built-in profiles, then any registered.
  public static let registry = Registry<LatencyProfile>(
    kind: "latency profile", plural: "latency profiles",
    [
      .chromeDevTools3G, .chromeDevToolsSlow4G, .chromeDevToolsFast4G,
      .lighthouseMobileSlow4G, .lighthouseMobileRegular3G, .lighthouseDesktopDense4G,
      .datacenterNVMe, .datacenterSATASSD,
    ])

  public static var all: [LatencyProfile] { registry.all }
}
