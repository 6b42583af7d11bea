import CacheCore

/// CLOCK (FIFO with reinsertion, second chance) with an n-bit reference counter.
///
/// A hit increments the object's counter up to 2^bits − 1. Eviction looks at the oldest
/// object: a non-zero counter is decremented and the object goes back to the head;
/// a zero counter is evicted. New objects start at 0.
/// Origin: Corbató 1968; semantics as libCacheSim's `Clock.c` (`n-bit-counter`).
/// Memory: one 32-byte arena node (counter in the node) + a 4-byte bucket per object.
public struct Clock: EvictionPolicy, ~Copyable {
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
    memoryPerObject: "36 B (32 B node with counter + 4 B bucket)")

  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var queue = SlotList()
  @usableFromInline let maxCount: UInt8
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    maxCount = UInt8((1 << parameters.integer("bits")) - 1)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { queue.bytes }
  @inlinable public var objectCount: Int { queue.count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    hit(request, at: slot)
    return true
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) {
    if arena[slot].extra < maxCount { arena[slot].extra += 1 }
  }

  @inlinable
  public mutating func insert(_ request: Request) { _ = insertReturningSlot(request) }

  @inlinable
  public mutating func insertReturningSlot(_ request: Request) -> Int32 {
    let slot = arena.insert(key: request.key, size: request.size, extra: 0)
    arena.pushFront(slot, to: &queue)
    return slot
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    var slot = queue.tail
    while arena[slot].extra > 0 {
      arena[slot].extra -= 1
      arena.moveToFront(slot, in: &queue)
      slot = queue.tail
    }
    victims.record(arena.evict(slot, from: &queue))
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
    let maxCount = maxCount
    try arena.checkSoleList(queue, named: "clock queue") { node throws(InvariantViolation) in
      guard node.extra <= maxCount else { throw InvariantViolation("counter \(node.extra) above \(maxCount)") }
    }
  }
}
