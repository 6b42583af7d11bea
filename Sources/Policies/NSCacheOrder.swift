import CacheCore

/// The eviction order of swift-corelibs-foundation's `NSCache` on Linux: cheapest first,
/// and among equal costs the newest first.
///
/// Reads have no effect. A new object is inserted first (its cost being its size here);
/// then, while the total cost exceeds the capacity, the cheapest object is removed — possibly
/// the new one — and with `count-limit`, the cheapest objects are removed until at most that
/// many remain. There is no admission check: an object costing more than the capacity is
/// inserted and immediately purged together with everything cheaper. Origin: seed-systems
/// §4.1 (`NSCache.swift`: list sorted by cost, insert before equal costs, purge from the head).
/// Memory: 32-byte node + 4-byte bucket + 28 bytes of heap entry per object.
public struct NSCacheOrder: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "nscache",
    summary: "Linux Foundation NSCache: evicts the cheapest object, newest first among equal costs",
    origin: "swift-corelibs-foundation NSCache.swift (cost-sorted list)",
    parameters: [
      ParameterSpec(
        "count-limit", default: "0", .integer(0...Int64(Int32.max)), help: "maximum number of objects (0: none)")
    ],
    memoryPerObject: "64 B (32 B node + 4 B bucket + 28 B heap entry)",
    insertsBeforeTrimming: true)

  /// Heap order: lower cost first, then the later insertion first.
  @usableFromInline
  struct Order: Comparable {
    @usableFromInline var cost: Int64
    @usableFromInline var sequence: Int64

    @inlinable init(cost: Int64, sequence: Int64) {
      self.cost = cost
      self.sequence = sequence
    }

    @inlinable static func < (a: Order, b: Order) -> Bool {
      a.cost != b.cost ? a.cost < b.cost : a.sequence > b.sequence
    }
  }

  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var order: IndexedHeap<Order>
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline var sequence: Int64 = 0
  @usableFromInline let countLimit: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    countLimit = Int(parameters.integer("count-limit"))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    order = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { arena.contains(request.key) }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: ())
    sequence += 1
    order.insert(slot, key: Order(cost: request.size, sequence: sequence))
    bytes += request.size
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    victims.record(release(order.popMinimum()))
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim {
    let victim = Victim(key: arena[slot].key, size: arena[slot].size)
    bytes -= victim.size
    arena.remove(slot)
    return victim
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    order.remove(slot)
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  @inlinable
  public mutating func handle<Sink: VictimSink>(_ request: Request, victims: inout Sink) -> Outcome {
    if arena.contains(request.key) { return .hit }
    insert(request)
    while bytes > capacity { evict(into: &victims) }
    if countLimit > 0 {
      while arena.count > countLimit { evict(into: &victims) }
    }
    return arena.contains(request.key) ? .inserted : .rejected
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try order.checkHeap()
    guard order.count == arena.count else {
      throw InvariantViolation("heap holds \(order.count) of \(arena.count) entries")
    }
    var total: Int64 = 0
    arena.forEachLiveSlot { slot in total += arena[slot].size }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
    guard countLimit == 0 || arena.count <= countLimit else {
      throw InvariantViolation("\(arena.count) objects above count limit \(countLimit)")
    }
  }
}
