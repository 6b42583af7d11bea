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

  /// Every expiry rule `--expiry` accepts, in listing order (library rules are defined in
  /// their preset's file).
  public static let registry = Registry<ExpiryRuleEntry>(
    kind: "expiry rule", plural: "expiry rules",
    [.none, .ttl, .http, .mknetworkkit, .mknetworkkitIntended, .urlcacheLinux])

  public var description: String { rule.name }

  public static func == (a: ExpiryModel, b: ExpiryModel) -> Bool { a.rule.name == b.rule.name }

  /// Parses `name[:key=value,...]` with the registry's shorthands: `none`, `ttl:300s,sliding`,
  /// `http:heuristic=0.2,shared`, `mknetworkkit`, ...
  ///
  /// - Throws: `ConfigurationError` naming the spec, for an unknown rule or a bad parameter.
  public init(parsing text: String) throws(ConfigurationError) {
    let colon = text.firstIndex(of: ":")
    let name = colon.map { String(text[..<$0]) } ?? text
    let options = colon.map { text[text.index(after: $0)...] } ?? ""
    do throws(ConfigurationError) {
      let entry = try Self.registry.named(name)
      let parameters = try Self.registry.parse(entry.name + ":" + entry.expandingShorthands(options)).parameters
      self.init(entry.build(parameters))
    } catch {
      throw ConfigurationError(error.code, "expiry '\(text)': \(error.message)")
    }
  }

  public func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    rule.allowsStoring(attributes, now: now)
  }
  public func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    rule.prepare(&metadata, attributes: attributes, now: now)
  }
  public func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness { rule.freshness(of: metadata, now: now) }
  /// ``ExpiryRule/freshness(at:now:)``: metadata read in place.
  public func freshness(at metadata: UnsafePointer<EntryMetadata>, now: Int64) -> Freshness {
    rule.freshness(at: metadata, now: now)
  }
  public func touch(_ metadata: inout EntryMetadata, now: Int64) { rule.touch(&metadata, now: now) }
  public func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    rule.mayServeOnError(metadata, now: now)
  }
}
