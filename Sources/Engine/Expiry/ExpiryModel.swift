import CacheCore

/// A tier's expiry rule as a value: compared and printed by its name. Rules are registered in
/// `ExpiryModel.named`; library rules are defined in their preset's file.
public struct ExpiryModel: Sendable, Equatable, CustomStringConvertible {
  public let rule: any ExpiryRule

  public init(_ rule: any ExpiryRule) {
    self.rule = rule
  }

  /// Objects never expire (they leave only by eviction or cleanup).
  public static let none = ExpiryModel(NoExpiry())

  /// A library time to live of `microseconds` of trace time (0: never), restarted by every
  /// hit when `sliding`; a request's own `ttl` attribute takes precedence.
  public static func ttl(microseconds: Int64, sliding: Bool) -> ExpiryModel {
    ExpiryModel(TTLExpiry(duration: microseconds, sliding: sliding))
  }

  /// RFC 9111 private (or `shared`) caching with heuristic freshness `heuristic`.
  public static func http(heuristic: Double = 0.1, shared: Bool = false) -> ExpiryModel {
    ExpiryModel(HTTPExpiry(heuristic: heuristic, shared: shared))
  }

  /// Parameterless rules by name, library rules included (one line each).
  static let named: [ExpiryModel] = [.none, .http(), .mknetworkkit, .mknetworkkitIntended, .urlcacheLinux]

  public var description: String { rule.name }

  public static func == (a: ExpiryModel, b: ExpiryModel) -> Bool { a.rule.name == b.rule.name }

  /// Parses `none`, `ttl:300s[,sliding]`, `http[:heuristic=0.1][,shared]` or a library rule
  /// (`mknetworkkit`, `mknetworkkit-intended`, `urlcache-linux`).
  public init(parsing text: String) throws(ConfigurationError) {
    let lowered = text.lowercased()
    if let match = Self.named.first(where: { $0.rule.name == lowered }) {
      self = match
    } else if lowered.hasPrefix("http:") {
      self.init(try HTTPExpiry(parsing: lowered.dropFirst(5)))
    } else if lowered.hasPrefix("ttl:") {
      self.init(try TTLExpiry(parsing: lowered.dropFirst(4)))
    } else {
      throw ConfigurationError(
        .invalidValue,
        "unknown expiry '\(text)'; known: ttl:DURATION[,sliding], http[:heuristic=F][,shared], "
          + Self.named.map(\.rule.name).joined(separator: ", "))
    }
  }

  public func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    rule.allowsStoring(attributes, now: now)
  }
  public func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    rule.prepare(&metadata, attributes: attributes, now: now)
  }
  public func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness { rule.freshness(of: metadata, now: now) }
  public func touch(_ metadata: inout EntryMetadata, now: Int64) { rule.touch(&metadata, now: now) }
  public func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    rule.mayServeOnError(metadata, now: now)
  }
}
