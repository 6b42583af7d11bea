import CacheCore

/// Hyperbolic caching: evicts, among a random sample of cached objects, the one with the
/// lowest request rate since it entered the cache (frequency / age).
///
/// Each object counts its requests (1 at insertion) and remembers when it entered; age is
/// measured in requests. Eviction samples `samples` objects uniformly (with repetition) and
/// takes the lowest 10^8 × frequency / age, the first in draw order on ties. Randomised (MMIX
/// generator, `--seed`). libCacheSim samples hash buckets rather than objects, so its numbers
/// differ slightly. Origin: Blankstein, Sen & Freedman, "Hyperbolic Caching: Flexible
/// Caching for Web Applications", USENIX ATC 2017; libCacheSim `Hyperbolic.c`.
/// Memory: 48-byte node + 4-byte bucket + 4-byte dense-array entry per object.
public struct Hyperbolic: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "hyperbolic",
    summary: "evicts the sampled object with the lowest frequency / age (randomised)",
    origin: "Blankstein, Sen & Freedman, USENIX ATC 2017; libCacheSim Hyperbolic.c",
    parameters: [
      ParameterSpec(
        "samples", default: "64", .integer(1...4096), help: "objects sampled per eviction", aliases: ["n-sample"])
    ],
    memoryPerObject: "56 B (48 B node + 4 B bucket + 4 B array entry)",
    isRandomized: true)

  /// Per-object state: index in the dense array, request count, time of insertion.
  @usableFromInline
  struct State: DenseIndexed {
    @usableFromInline var index: Int32
    @usableFromInline var frequency: Int32
    @usableFromInline var insertedAt: Int64

    @inlinable init(index: Int32, frequency: Int32, insertedAt: Int64) {
      self.index = index
      self.frequency = frequency
      self.insertedAt = insertedAt
    }

    @inlinable var denseIndex: Int32 {
      get { index }
      set { index = newValue }
    }
  }

  @usableFromInline var objects: SampledObjects<State>
  @usableFromInline var clock: Int64 = 0
  @usableFromInline var random: MMIXRandom
  @usableFromInline let samples: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    samples = Int(parameters.integer("samples"))
    random = MMIXRandom(seed: context.seed)
    objects = SampledObjects(capacity: capacity)
  }

  @inlinable public var occupiedBytes: Int64 { objects.bytes }
  @inlinable public var objectCount: Int { objects.count }
  public var storageBytes: Int { objects.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    clock += 1
    let slot = objects.arena.find(request.key)
    guard slot >= 0 else { return false }
    objects.arena[slot].extra.frequency &+= 1
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    objects.insert(request, extra: State(index: 0, frequency: 1, insertedAt: clock))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    var best: Int32 = -1
    var bestScore = 1.0e16
    for _ in 0..<samples {
      let slot = objects.slot(at: Int(random.next() % UInt64(objects.count)))
      let state = objects.arena[slot].extra
      let score = 1.0e8 * Double(state.frequency) / Double(max(clock - state.insertedAt, 1))
      if bestScore > score {
        bestScore = score
        best = slot
      }
    }
    if best < 0 { best = objects.slot(at: objects.count - 1) }
    victims.record(objects.release(best))
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
