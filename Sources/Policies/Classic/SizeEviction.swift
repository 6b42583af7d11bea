import CacheCore

/// Size: evicts the largest object. The priority is the size of the object's last request (a
/// hit sets it again), kept in libCacheSim's own binary heap (``LibPQueue``), so objects of
/// equal size leave in exactly libCacheSim's order (in object mode every object ties).
/// Origin: Williams et al., "Removal Policies in Network Caches for World-Wide Web
/// Documents", SIGCOMM 1996; libCacheSim `Size.c`.
/// Memory: 32-byte node + 4-byte bucket + 16 bytes of heap entry, position and priority.
public struct SizeEviction: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "size",
    summary: "evicts the largest object (size of its last request; ties in libCacheSim's heap order)",
    origin: "Williams et al., SIGCOMM 1996; libCacheSim Size.c",
    memoryPerObject: "52 B (32 B node + 4 B bucket + 16 B heap entry)",
    libCacheSim: .counterparts([LibCacheSimCounterpart(constructor: "Size_init")]))

  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var heap = LibPQueue()
  @usableFromInline var bytes: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + heap.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    heap.change(slot, to: request.size)
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: ())
    bytes += request.size
    heap.insert(slot, priority: request.size)
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let slot = heap.pop()
    victims.record(release(slot))
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim { arena.release(slot, from: &bytes) }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    heap.remove(slot)
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try heap.check()
    guard heap.count == arena.count else {
      throw InvariantViolation("heap holds \(heap.count) of \(arena.count) objects")
    }
  }
}
