import CacheCore

/// Least recently used: a hit moves the object to the head; the tail is evicted.
///
/// Count-LRU when the capacity is an object count (object mode), byte-LRU otherwise.
/// Origin: the classic policy; semantics as libCacheSim's `LRU.c`.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct LRU: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lru",
    summary: "least recently used: evicts the object not requested for the longest time",
    origin: "classic; libCacheSim LRU.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "LRU_init", reference: LibCacheSimReference("lru"))
    ]),
    lruStack: LRUStackCurve { capacity, peakObjects in
      SlotArena<Void>.footprint(initialCapacity: initialSlotCapacity(for: capacity), peakLiveCount: peakObjects)
    })

  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var queue = SlotList()
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<Void, R, E>) throws(E) -> R {
    try body(arena, queue)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<Void, R>) -> R {
    body(&arena, &queue)
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) { arena.moveToFront(slot, in: &queue) }

  /// The arena's stages, and at stage 3 the neighbours a hit's move will relink.
  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) {
    if stage == 3 { arena.prefetchNeighbours(of: key) } else { arena.prefetch(key, stage: stage) }
  }
}
