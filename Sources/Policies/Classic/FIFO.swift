import CacheCore

/// First in, first out: hits change nothing; the oldest insertion is evicted.
///
/// Origin: the classic policy; semantics as libCacheSim's `FIFO.c`.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct FIFO: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "fifo",
    summary: "first in, first out: evicts the oldest insertion; hits change nothing",
    origin: "classic; libCacheSim FIFO.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "FIFO_init", reference: LibCacheSimReference("fifo"))
    ]))

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
}
