import CacheCore

/// Evicts a uniformly random cached object.
///
/// Objects sit in a dense array (their index kept in the node) so a victim is drawn and
/// removed in O(1). Randomness comes from SplitMix64 seeded with the run's `--seed`, so a
/// run is reproducible. Origin: classic baseline; libCacheSim `Random.c`, whose numbers depend
/// on its generator and hash table: `random-lru:n-samples=1` reproduces them exactly.
/// Memory: 32-byte node + 4-byte bucket + 4-byte dense-array entry per object.
public struct RandomEviction: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "random",
    summary: "evicts a uniformly random object (seeded)",
    origin: "classic baseline; libCacheSim Random.c",
    memoryPerObject: "40 B (32 B node + 4 B bucket + 4 B array entry)",
    isRandomized: true,
    libCacheSim: .counterparts([LibCacheSimCounterpart(constructor: "Random_init", randomised: true)]))

  @usableFromInline var objects: SampledObjects<Int32>
  @usableFromInline var random: SplitMix64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    objects = SampledObjects(capacity: capacity)
    random = SplitMix64(seed: context.seed ^ 0x5241_4e44)
  }

  @inlinable public var occupiedBytes: Int64 { objects.bytes }
  @inlinable public var objectCount: Int { objects.count }
  public var storageBytes: Int { objects.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { objects.arena.contains(request.key) }

  @inlinable
  public mutating func insert(_ request: Request) { objects.insert(request, extra: 0) }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    victims.record(objects.release(objects.slot(at: random.next(below: objects.count))))
  }

  public mutating func remove(_ key: UInt64) -> Victim? { objects.remove(key) }

  public func contains(_ key: UInt64) -> Bool { objects.arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { objects.arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try objects.check()
  }
}
