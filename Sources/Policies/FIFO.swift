import CacheCore

/// First in, first out: hits change nothing; the oldest insertion is evicted.
///
/// Origin: the classic policy; semantics as libCacheSim's `FIFO.c`.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct FIFO: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "fifo",
    summary: "first in, first out: evicts the oldest insertion; hits change nothing",
    origin: "classic; libCacheSim FIFO.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket)")

  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var queue = SlotList()
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { queue.bytes }
  @inlinable public var objectCount: Int { queue.count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    arena.find(request.key) >= 0
  }

  /// A hit changes nothing.
  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) {}

  @inlinable
  public mutating func insert(_ request: Request) { _ = insertReturningSlot(request) }

  @inlinable
  public mutating func insertReturningSlot(_ request: Request) -> Int32 {
    let slot = arena.insert(key: request.key, size: request.size, extra: ())
    arena.pushFront(slot, to: &queue)
    return slot
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    victims.record(arena.evict(queue.tail, from: &queue))
  }

  public mutating func remove(_ key: UInt64) -> Victim? { arena.evict(key: key, from: &queue) }

  /// Every object keeps its arena slot while cached.
  public static var slotsAreStable: Bool { true }

  public func slot(of key: UInt64) -> Int32 { arena.find(key) }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkSoleList(queue, named: "fifo queue")
  }
}
