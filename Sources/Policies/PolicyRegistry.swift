import CacheCore

/// The one list of eviction policies. The CLI, `cachelab policies` and the tests all read
/// it; adding a policy means adding its file and one line here.
public enum PolicyRegistry {
  /// Every registered policy, in the order `cachelab policies` lists them.
  public static let all: [PolicyEntry] = [
    PolicyEntry(FIFO.self),
    PolicyEntry(LRU.self),
    PolicyEntry(Clock.self),
    PolicyEntry(Sieve.self),
    PolicyEntry(MRU.self),
    PolicyEntry(LFU.self),
    PolicyEntry(LFUDA.self),
    PolicyEntry(GDSF.self),
    PolicyEntry(Belady.self),
    PolicyEntry(SLRU.self),
    PolicyEntry(ARC.self),
    PolicyEntry(LIRS.self),
    PolicyEntry(TwoQ.self),
    PolicyEntry(WTinyLFU.self),
    PolicyEntry(LHD.self),
    PolicyEntry(LeCaR.self),
    PolicyEntry(Hyperbolic.self),
    PolicyEntry(S3FIFO.self),
    PolicyEntry(QDLP.self),
    PolicyEntry(RandomEviction.self),
    PolicyEntry(CostLRU.self),
    PolicyEntry(AccessDatePurge.self),
    PolicyEntry(NSCacheOrder.self),
    PolicyEntry(URLCacheOrder.self),
  ]

  /// The entry named `name` (or one of its aliases), case-insensitively.
  ///
  /// - Throws: ``ConfigurationError`` listing the known names.
  public static func entry(named name: String) throws(ConfigurationError) -> PolicyEntry {
    let key = name.lowercased()
    if let entry = all.first(where: { $0.descriptor.name == key || $0.descriptor.aliases.contains(key) }) {
      return entry
    }
    throw ConfigurationError(
      .unknownName,
      "unknown policy '\(name)'"
        + Spelling.suggestion(for: name, among: all.flatMap { [$0.descriptor.name] + $0.descriptor.aliases })
        + "; known policies: " + all.map(\.descriptor.name).joined(separator: ", "))
  }
}

/// A registered policy: its descriptor and a factory specialised for its type.
public struct PolicyEntry: Sendable {
  /// The policy's name, parameters and documentation.
  public let descriptor: PolicyDescriptor
  let factory:
    @Sendable (Int64, Parameters, PolicyContext, TimeToLive?) throws(ConfigurationError) -> any CacheSimulation

  /// Registers policy type `P`.
  public init<P: EvictionPolicy & ~Copyable>(_ type: P.Type) {
    descriptor = P.descriptor
    factory = { capacity, parameters, context, timeToLive throws(ConfigurationError) in
      PolicySimulation(try P(capacity: capacity, parameters: parameters, context: context), timeToLive: timeToLive)
    }
  }

  /// Parses `text` (`k=v,k=v`) against this policy's parameters.
  public func parameters(_ text: Substring = "") throws(ConfigurationError) -> Parameters {
    try Parameters(parsing: text, specs: descriptor.parameters, owner: descriptor.name)
  }

  /// Creates an empty simulated cache of `capacity` bytes (or objects); with `timeToLive`,
  /// its replays expire objects by that rule (`--ttl`).
  public func makeSimulation(
    capacity: Int64, parameters: Parameters, context: PolicyContext = PolicyContext(),
    timeToLive: TimeToLive? = nil
  ) throws(ConfigurationError) -> any CacheSimulation {
    try factory(capacity, parameters, context, timeToLive)
  }
}
