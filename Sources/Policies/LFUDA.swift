import CacheCore

/// LFU with dynamic aging: priorities grow with the cache "age" L so that once-popular
/// objects eventually leave.
///
/// As libCacheSim's `LFUDA.c` (not the textbook variant): a new object gets priority L + 1;
/// a hit adds the current L to the object's priority; eviction takes the oldest object of
/// the lowest priority and sets L to that priority (L starts at 0 and only changes on
/// evictions or when the lowest priority class empties). Integer arithmetic; ties by time of
/// entering the priority class. Origin: Arlitt et al., "Evaluating content management
/// techniques for Web proxy caches", 2000; libCacheSim `LFUDA.c`.
/// Memory: 32-byte node + 4-byte bucket + 28 bytes of heap entry per object.
public struct LFUDA: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lfuda",
    summary: "LFU with dynamic aging: priority grows with the cache age L",
    origin: "Arlitt, Cherkasova, Dilley, Friedrich & Jin, 2000; libCacheSim LFUDA.c",
    memoryPerObject: "64 B (32 B node + 4 B bucket + 28 B heap entry)")

  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var heap: IndexedHeap<IntegerPriority>
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline var sequence: Int64 = 0
  /// The cache age L (libCacheSim's `min_freq`).
  @usableFromInline var age: Int64 = 0
  /// The highest priority given by a hit (libCacheSim's `max_freq`).
  @usableFromInline var highest: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    heap = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }

  /// Raises L to the lowest priority in use when its class has emptied (never above the
  /// highest hit priority, as the peer's bucket scan).
  @inlinable
  mutating func ageAfterEmptying(_ priority: Int64) {
    guard heap.isEmpty || heap.minimumKey.priority != priority else { return }
    if !heap.isEmpty, heap.minimumKey.priority <= highest { age = heap.minimumKey.priority }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    let priority = heap.key(of: slot).priority
    let raised = priority + age
    highest = max(highest, raised)
    heap.remove(slot)
    if age == priority { ageAfterEmptying(priority) }
    sequence += 1
    heap.insert(slot, key: IntegerPriority(raised, sequence: sequence))
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: ())
    sequence += 1
    heap.insert(slot, key: IntegerPriority(age + 1, sequence: sequence))
    bytes += request.size
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    let priority = age <= 1 ? 1 : age
    age = priority
    victims.record(release(heap.popMinimum()))
    ageAfterEmptying(priority)
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
    let priority = heap.key(of: slot).priority
    heap.remove(slot)
    if age == priority { ageAfterEmptying(priority) }
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try checkHeapPolicy(arena, heap, bytes: bytes)
  }
}

/// Shared self-check of the heap-ordered policies: index, heap order, one heap entry per
/// object and the byte total.
func checkHeapPolicy<Extra, Key>(
  _ arena: borrowing SlotArena<Extra>, _ heap: borrowing IndexedHeap<Key>, bytes: Int64
) throws(InvariantViolation) {
  try arena.checkIndex()
  try heap.checkHeap()
  guard heap.count == arena.count else {
    throw InvariantViolation("heap holds \(heap.count) of \(arena.count) entries")
  }
  var total: Int64 = 0
  var missing = false
  arena.forEachLiveSlot { slot in
    total += arena[slot].size
    if !heap.contains(slot) { missing = true }
  }
  guard !missing else { throw InvariantViolation("a cached object is not in the heap") }
  guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
}
