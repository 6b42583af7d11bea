import CacheCore

/// Greedy-Dual-Size-Frequency: evicts the object with the lowest L + frequency × cost / size,
/// where L is the priority of the last evicted object, so small popular objects stay.
///
/// As libCacheSim's `cpp/GDSF.cpp` (2023): the cost is the constant 10^6, priorities are
/// doubles computed as L + (frequency × 10^6) / size when the object is inserted (frequency 1)
/// or hit, ties go to the object inserted or hit longest ago, and eviction runs before
/// insertion. Origin: Cherkasova, "Improving WWW proxies performance with Greedy-Dual-Size-
/// Frequency caching policy", HP Labs 1998; libCacheSim `GDSF.cpp`.
/// Memory: 32-byte node (frequency in the node) + 4-byte bucket + 28 bytes of heap entry.
public struct GDSF: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "gdsf",
    summary: "greedy-dual size frequency: lowest L + frequency * 1e6 / size leaves first",
    origin: "Cherkasova, HP Labs 1998; libCacheSim cpp/GDSF.cpp",
    memoryPerObject: "64 B (32 B node + 4 B bucket + 28 B heap entry)")

  /// Per-object state: the request frequency since insertion.
  @usableFromInline var arena: SlotArena<Int64>
  @usableFromInline var heap: IndexedHeap<RealPriority>
  @usableFromInline var bytes: Int64 = 0
  /// Index of the current request (the peer's `n_req`), the tie-breaker.
  @usableFromInline var clock: Int64 = 0
  /// L: the priority of the last evicted object.
  @usableFromInline var inflation: Double = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    heap = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }

  @inlinable
  func priority(frequency: Int64, size: Int64) -> Double {
    inflation + Double(frequency) * 1.0e6 / Double(size)
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    arena[slot].extra += 1
    heap.update(
      slot, key: RealPriority(priority(frequency: arena[slot].extra, size: arena[slot].size), sequence: clock))
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: 1)
    heap.insert(slot, key: RealPriority(priority(frequency: 1, size: request.size), sequence: clock))
    bytes += request.size
  }

  @inlinable
  public mutating func handle<Sink: VictimSink>(_ request: Request, victims: inout Sink) -> Outcome {
    clock += 1
    if access(request) { return .hit }
    if request.size > capacity { return .rejected }
    while bytes + request.size > capacity { evict(into: &victims) }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    inflation = heap.minimumKey.priority
    let slot = heap.popMinimum()
    let victim = Victim(key: arena[slot].key, size: arena[slot].size)
    bytes -= victim.size
    arena.remove(slot)
    victims.record(victim)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    heap.remove(slot)
    let victim = Victim(key: arena[slot].key, size: arena[slot].size)
    bytes -= victim.size
    arena.remove(slot)
    return victim
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try checkHeapPolicy(arena, heap, bytes: bytes)
  }
}
