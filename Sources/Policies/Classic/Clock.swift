import CacheCore

/// CLOCK (FIFO with reinsertion, second chance) with an n-bit reference counter.
///
/// A hit increments the object's counter up to 2^bits − 1. Eviction looks at the oldest
/// object: a non-zero counter is decremented and the object goes back to the head;
/// a zero counter is evicted. New objects start at 0.
/// Origin: Corbató 1968; semantics as libCacheSim's `Clock.c` (`n-bit-counter`).
/// Memory: one 32-byte arena node (counter in the node) + a 4-byte bucket per object.
public struct Clock: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "clock",
    aliases: ["fifo-reinsertion", "second-chance"],
    summary: "FIFO with reinsertion: objects hit since their last pass get another round",
    origin: "Corbató 1968 (second chance); libCacheSim Clock.c",
    parameters: [
      ParameterSpec(
        "bits", default: "1", .integer(1...8),
        help: "width of the reference counter; hits count up to 2^bits-1",
        aliases: ["n-bit-counter"])
    ],
    memoryPerObject: "36 B (32 B node with counter + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "bits=1", constructor: "Clock_init", peerParameters: "init-freq=0,n-bit-counter=1",
        reference: LibCacheSimReference("clock", parameters: "n-bit-counter=1")),
      LibCacheSimCounterpart(
        parameters: "bits=2", constructor: "Clock_init", peerParameters: "init-freq=0,n-bit-counter=2"),
    ]))

  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var queue = SlotList()
  @usableFromInline let maxCount: UInt8
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    maxCount = UInt8((1 << parameters.integer("bits")) - 1)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public static var initialExtra: UInt8 { 0 }
  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<UInt8, R, E>) throws(E) -> R {
    try body(arena, queue)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<UInt8, R>) -> R {
    body(&arena, &queue)
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) {
    if arena[slot].extra < maxCount { arena[slot].extra += 1 }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var slot = queue.tail
    while arena[slot].extra > 0 {
      arena[slot].extra -= 1
      arena.moveToFront(slot, in: &queue)
      slot = queue.tail
    }
    victims.record(arena.evict(slot, from: &queue))
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    let maxCount = maxCount
    try arena.checkSoleList(queue, named: "clock queue") { node throws(InvariantViolation) in
      guard node.extra <= maxCount else { throw InvariantViolation("counter \(node.extra) above \(maxCount)") }
    }
  }
}
