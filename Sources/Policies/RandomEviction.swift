import CacheCore

/// Evicts a uniformly random cached object.
///
/// Objects sit in a dense array (their index kept in the node) so a victim is drawn and
/// removed in O(1). Randomness comes from SplitMix64 seeded with the run's `--seed`, so a
/// run is reproducible. Origin: classic baseline; libCacheSim `Random.c` (whose numbers
/// depend on its own generator).
/// Memory: 32-byte node + 4-byte bucket + 4-byte dense-array entry per object.
public struct RandomEviction: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "random",
    summary: "evicts a uniformly random object (seeded)",
    origin: "classic baseline; libCacheSim Random.c",
    memoryPerObject: "40 B (32 B node + 4 B bucket + 4 B array entry)",
    isRandomized: true)

  /// Per-object state: the object's index in `dense`.
  @usableFromInline var arena: SlotArena<Int32>
  @usableFromInline var dense: [Int32] = []
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline var random: SplitMix64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    random = SplitMix64(seed: context.seed ^ 0x5241_4e44)
    dense.reserveCapacity(initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { dense.count }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { arena.contains(request.key) }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Int32(dense.count))
    dense.append(slot)
    bytes += request.size
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    victims.record(release(dense[random.next(below: dense.count)]))
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim {
    let index = Int(arena[slot].extra)
    let last = dense.removeLast()
    if last != slot {
      dense[index] = last
      arena[last].extra = Int32(index)
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
      throw InvariantViolation("dense array holds \(dense.count) of \(arena.count) entries")
    }
    var total: Int64 = 0
    for (index, slot) in dense.enumerated() {
      guard arena.isLive(slot), arena[slot].extra == Int32(index) else {
        throw InvariantViolation("dense index \(index) and slot \(slot) disagree")
      }
      total += arena[slot].size
    }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
  }
}
