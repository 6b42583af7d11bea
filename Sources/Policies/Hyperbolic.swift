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
  struct State {
    @usableFromInline var index: Int32
    @usableFromInline var frequency: Int32
    @usableFromInline var insertedAt: Int64

    @inlinable init(index: Int32, frequency: Int32, insertedAt: Int64) {
      self.index = index
      self.frequency = frequency
      self.insertedAt = insertedAt
    }
  }

  @usableFromInline var arena: SlotArena<State>
  @usableFromInline var dense: [Int32] = []
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline var clock: Int64 = 0
  @usableFromInline var random: MMIXRandom
  @usableFromInline let samples: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    samples = Int(parameters.integer("samples"))
    random = MMIXRandom(seed: context.seed)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    dense.reserveCapacity(initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { dense.count }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    clock += 1
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    arena[slot].extra.frequency &+= 1
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(
      key: request.key, size: request.size, extra: State(index: Int32(dense.count), frequency: 1, insertedAt: clock))
    dense.append(slot)
    bytes += request.size
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    var best: Int32 = -1
    var bestScore = 1.0e16
    for _ in 0..<samples {
      let slot = dense[Int(random.next() % UInt64(dense.count))]
      let state = arena[slot].extra
      let score = 1.0e8 * Double(state.frequency) / Double(max(clock - state.insertedAt, 1))
      if bestScore > score {
        bestScore = score
        best = slot
      }
    }
    if best < 0 { best = dense[dense.count - 1] }
    victims.record(release(best))
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim {
    let index = Int(arena[slot].extra.index)
    let last = dense.removeLast()
    if last != slot {
      dense[index] = last
      arena[last].extra.index = Int32(index)
    }
    let victim = Victim(key: arena[slot].key, size: arena[slot].size)
    bytes -= victim.size
    arena.remove(slot)
    return victim
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    return slot < 0 ? nil : release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    guard dense.count == arena.count else {
      throw InvariantViolation("dense array holds \(dense.count) of \(arena.count)")
    }
    var total: Int64 = 0
    for (index, slot) in dense.enumerated() {
      guard arena.isLive(slot), arena[slot].extra.index == Int32(index) else {
        throw InvariantViolation("dense index \(index) and slot \(slot) disagree")
      }
      total += arena[slot].size
    }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
  }
}
