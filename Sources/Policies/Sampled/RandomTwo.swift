import CacheCore

/// Power of two random choices for eviction: draws two cached objects at random and evicts
/// the one requested longer ago.
///
/// As libCacheSim's `RandomTwo.c`: ``RandomLRU`` with two samples (the first is evicted only
/// when its last access is strictly older), drawn through libCacheSim's own hash table with
/// lehmer64, so seed 0 and the package's `hashpower` reproduce the libcachesim package.
/// Origin: Mitzenmacher, "The Power of Two Choices in Randomized Load Balancing", 2001;
/// libCacheSim `RandomTwo.c`.
/// Memory: 28 B per object (key, chain link, size, last access) + 4–8 B of buckets.
public struct RandomTwo: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "random-two",
    aliases: ["randomtwo"],
    summary: "evicts the less recently used of two objects drawn at random (seeded)",
    origin: "Mitzenmacher 2001 (two choices); libCacheSim RandomTwo.c",
    parameters: [RandomLRU.hashpowerParameter],
    memoryPerObject: "32–36 B (28 B key, link, size, last access + 4–8 B buckets)", isRandomized: true,
    // Sampled through CacheLab's port of libCacheSim's hash table, whose size follows the hash power:
    // hashpower=20 is Scripts/peer_diff.py's default --hashpower.
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "hashpower=20", constructor: "RandomTwo_init", resetsGenerator: true)
    ]))

  /// The sampled LRU this policy is, with two samples.
  @usableFromInline var sampled: RandomLRU
  public var capacity: Int64 { sampled.capacity }

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    sampled = RandomLRU(capacity: capacity, samples: 2, parameters: parameters, context: context)
  }

  @inlinable public var occupiedBytes: Int64 { sampled.occupiedBytes }
  @inlinable public var objectCount: Int { sampled.objectCount }
  public var storageBytes: Int { sampled.storageBytes }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { sampled.access(request) }

  @inlinable
  public mutating func insert(_ request: Request) { sampled.insert(request) }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) { sampled.evict(collecting: &victims) }

  public mutating func remove(_ key: UInt64) -> Victim? { sampled.remove(key) }

  public func contains(_ key: UInt64) -> Bool { sampled.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { sampled.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) { try sampled.checkInvariants() }
}
