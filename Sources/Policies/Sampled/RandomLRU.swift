import CacheCore

/// Sampled LRU: each eviction draws `n-samples` cached objects at random (with replacement)
/// and evicts the one requested longest ago — LRU's choice among a sample, with no list.
///
/// As libCacheSim's `RandomLRU.c` in the libcachesim package (which draws `n-samples`, not the
/// 64 of the published source): objects live only in libCacheSim's own hash table
/// (``LibCacheSimTable``, starting at 2^max(12, hashpower − 8) buckets), each sample is its
/// `hashtable_rand_obj` (lehmer64 from 0xdeadbeef + `--seed`), and a hit stamps the object with
/// the request's number. Seed 0 and the package's `hashpower` reproduce the package exactly.
/// Origin: sampled eviction as in Redis' approximated LRU (Psounis & Prabhakar, INFOCOM 2001);
/// libCacheSim `RandomLRU.c`.
/// Memory: 28 B per object (key, chain link, size, last access) + 4–8 B of buckets.
public struct RandomLRU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "random-lru",
    aliases: ["randomlru"],
    summary: "evicts the least recently used of n objects drawn at random (seeded)",
    origin: "Psounis & Prabhakar, INFOCOM 2001; libCacheSim RandomLRU.c",
    parameters: [
      ParameterSpec(
        "n-samples", default: "16", .integer(1...4096), help: "objects drawn per eviction", aliases: ["n-sample"]),
      hashpowerParameter,
    ],
    memoryPerObject: "32–36 B (28 B key, link, size, last access + 4–8 B buckets)", isRandomized: true,
    // Sampled through CacheLab's port of libCacheSim's hash table, whose size follows the hash power:
    // hashpower=20 is Scripts/peer_diff.py's default --hashpower.
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "n-samples=16,hashpower=20", constructor: "RandomLRU_init", peerParameters: "n-samples=16",
        resetsGenerator: true),
      LibCacheSimCounterpart(
        parameters: "n-samples=1,hashpower=20", constructor: "Random_init", note: "libCacheSim's Random.c: one sample",
        resetsGenerator: true),
    ]))

  /// libCacheSim's `hashpower` (its table starts at 2^max(12, hashpower − 8) buckets).
  static let hashpowerParameter = ParameterSpec(
    "hashpower", default: "24", .integer(12...34),
    help: "libCacheSim's hash power: the table starts at 2^max(12, hashpower − 8) buckets (the package's default 24)")

  /// Objects with the number of the request that last touched them.
  @usableFromInline var table: LibCacheSimTable<Int64>
  @usableFromInline var random: Lehmer64
  @usableFromInline let samples: Int
  @usableFromInline var requests: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.init(
      capacity: capacity, samples: Int(parameters.integer("n-samples")), parameters: parameters, context: context)
  }

  /// A cache drawing `samples` objects per eviction (``RandomTwo`` draws two).
  init(capacity: Int64, samples: Int, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    self.samples = samples
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    table = LibCacheSimTable(
      power: max(12, Int(parameters.integer("hashpower")) - 8), capacity: initialSlotCapacity(for: capacity),
      samples: samples)
  }

  @inlinable public var occupiedBytes: Int64 { table.bytes }
  @inlinable public var objectCount: Int { table.count }
  public var storageBytes: Int { table.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    requests += 1
    let slot = table.find(request.key)
    guard slot >= 0 else { return false }
    table[slot].payload = requests
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    _ = table.insert(key: request.key, size: request.size, payload: requests)
  }

  /// Draws the samples in order and evicts the first one with the oldest access.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    guard table.count > 0 else { return }
    let drawn = table.randomSlots(samples, &random)
    var victim = drawn[0]
    for draw in 1..<samples where table[drawn[draw]].payload < table[victim].payload { victim = drawn[draw] }
    victims.record(table.take(victim))
  }

  public mutating func remove(_ key: UInt64) -> Victim? { table.take(key: key) }

  public func contains(_ key: UInt64) -> Bool { table.find(key) >= 0 }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { table.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try table.check()
  }
}
