import CacheCore

/// Hyperbolic caching: evicts, among a random sample of cached objects, the one with the
/// lowest request rate since it entered the cache (frequency / age).
///
/// As libCacheSim's `Hyperbolic.c`: each object counts its requests (1 at insertion) and
/// remembers the request that inserted it; an eviction draws `samples` objects with
/// replacement and takes the lowest 10^8 × frequency / age (age in requests), the first in
/// draw order on ties. Objects live in libCacheSim's own hash table (``LibCacheSimTable``,
/// 2^max(12, hashpower − 8) buckets at first) and each sample is its `hashtable_rand_obj`
/// drawing from lehmer64 (0xdeadbeef + `--seed`), so seed 0 and the package's `hashpower`
/// reproduce the libcachesim package. Origin: Blankstein, Sen & Freedman, "Hyperbolic Caching:
/// Flexible Caching for Web Applications", USENIX ATC 2017; libCacheSim `Hyperbolic.c`.
/// Memory: 36 B per object (key, chain link, size, count, insertion) + 4–8 B of buckets.
public struct Hyperbolic: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "hyperbolic",
    summary: "evicts the sampled object with the lowest frequency / age (randomised)",
    origin: "Blankstein, Sen & Freedman, USENIX ATC 2017; libCacheSim Hyperbolic.c",
    parameters: [
      ParameterSpec(
        "samples", default: "64", .integer(1...4096), help: "objects sampled per eviction", aliases: ["n-sample"]),
      RandomLRU.hashpowerParameter,
    ],
    memoryPerObject: "40–44 B (36 B key, link, size, count, insertion + 4–8 B buckets)",
    isRandomized: true,
    // Sampled through CacheLab's port of libCacheSim's hash table, whose size follows the hash power:
    // hashpower=20 is Scripts/peer_diff.py's default --hashpower.
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "samples=64,hashpower=20", constructor: "Hyperbolic_init", resetsGenerator: true)
    ]))

  /// Per-object state: request count and the request that inserted it.
  @usableFromInline
  struct State {
    @usableFromInline var frequency: Int64
    @usableFromInline var insertedAt: Int64

    @inlinable init(frequency: Int64, insertedAt: Int64) {
      self.frequency = frequency
      self.insertedAt = insertedAt
    }
  }

  @usableFromInline var table: LibCacheSimTable<State>
  @usableFromInline var clock: Int64 = 0
  @usableFromInline var random: Lehmer64
  @usableFromInline let samples: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    samples = Int(parameters.integer("samples"))
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
    clock += 1
    let slot = table.find(request.key)
    guard slot >= 0 else { return false }
    table[slot].payload.frequency &+= 1
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    _ = table.insert(key: request.key, size: request.size, payload: State(frequency: 1, insertedAt: clock))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    guard table.count > 0 else { return }
    var best: Int32 = -1
    var bestScore = 1.0e16
    var sampled: Int32 = -1
    for slot in table.randomSlots(samples, &random) {
      sampled = slot
      let state = table[sampled].payload
      let score = 1.0e8 * Double(state.frequency) / Double(max(clock - state.insertedAt, 1))
      if bestScore > score {
        bestScore = score
        best = sampled
      }
    }
    victims.record(table.take(best >= 0 ? best : sampled))
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
