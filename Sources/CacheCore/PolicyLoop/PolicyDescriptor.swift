/// What the registry, the CLI and the tests know about a policy without instantiating it.
public struct PolicyDescriptor: Sendable {
  /// Registry key: lowercase, dashes (`lru`, `s3fifo`, `cost-lru`).
  public var name: String
  /// Other names that select this policy (e.g. libCacheSim's).
  public var aliases: [String]
  /// One line: what the policy does.
  public var summary: String
  /// The paper or library the policy comes from.
  public var origin: String
  /// The `key=value` parameters it takes.
  public var parameters: [ParameterSpec]
  /// Memory per cached object, for documentation (e.g. "32 B node + 4 B bucket").
  public var memoryPerObject: String
  /// Whether the policy uses randomness (and therefore the run's seed).
  public var isRandomized: Bool
  /// Whether the policy needs each request's next-access time (offline policies).
  public var needsNextAccess: Bool
  /// Whether a missed object is always inserted before trimming (no size check), as some
  /// library caches do: an object larger than the cache then empties it. Otherwise such
  /// an object is rejected and the cache is left as it was (libCacheSim's rule).
  public var insertsBeforeTrimming: Bool
  /// libCacheSim's counterparts, or why there is none (`Scripts/peer_diff.py` compares them).
  public var libCacheSim: LibCacheSimMapping
  /// Set when the policy is exactly LRU, so one stack-distance pass gives its misses at every
  /// size (``LRUStackCurve``); nil for every other policy.
  public var lruStack: LRUStackCurve?

  public init(
    name: String, aliases: [String] = [], summary: String, origin: String,
    parameters: [ParameterSpec] = [], memoryPerObject: String,
    isRandomized: Bool = false, needsNextAccess: Bool = false, insertsBeforeTrimming: Bool = false,
    libCacheSim: LibCacheSimMapping, lruStack: LRUStackCurve? = nil
  ) {
    self.name = name
    self.aliases = aliases
    self.summary = summary
    self.origin = origin
    self.parameters = parameters
    self.memoryPerObject = memoryPerObject
    self.isRandomized = isRandomized
    self.needsNextAccess = needsNextAccess
    self.insertsBeforeTrimming = insertsBeforeTrimming
    self.libCacheSim = libCacheSim
    self.lruStack = lruStack
  }
}
