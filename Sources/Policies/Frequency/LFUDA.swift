import CacheCore

/// LFU with dynamic aging: priorities grow with the cache "age" L so that once-popular
/// objects eventually leave.
///
/// As libCacheSim's `LFUDA.c` (not the textbook variant): a new object gets priority L + 1;
/// a hit adds the current L to the object's priority; eviction takes the oldest object of
/// the lowest priority and sets L to that priority (L starts at 0 and only changes on
/// evictions or when the lowest priority class empties). Integer arithmetic; ties by time of
/// entering the priority class. As in libCacheSim, a hit that empties class L moves L before
/// the object lands in its new class, which can then be below L: it is not evicted until hit
/// again, and max_freq rises when an insertion creates its class. Origin: Arlitt et al., "Evaluating content management
/// techniques for Web proxy caches", 2000; libCacheSim `LFUDA.c`.
/// Memory: 32-byte node + 4-byte bucket + 24 bytes of heap entry per object.
public struct LFUDA: HeapOrderedPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lfuda",
    summary: "LFU with dynamic aging: priority grows with the cache age L",
    origin: "Arlitt, Cherkasova, Dilley, Friedrich & Jin, 2000; libCacheSim LFUDA.c",
    memoryPerObject: "60 B (32 B node + 4 B bucket + 24 B heap entry)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "LFUDA_init", reference: LibCacheSimReference("lfuda"))
    ]))

  @usableFromInline var objects: Objects
  @usableFromInline var sequence: Int64 = 0
  /// The cache age L (libCacheSim's `min_freq`).
  @usableFromInline var age: Int64 = 0
  /// The highest priority given by a hit or an insertion (libCacheSim's `max_freq`).
  @usableFromInline var highest: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    objects = HeapOrderedObjects(capacity: capacity)
  }

  public typealias Objects = HeapOrderedObjects<Void, IntegerPriority>

  @inlinable @inline(__always) public func withObjects<R, E>(_ body: (borrowing Objects) throws(E) -> R) throws(E) -> R
  {
    try body(objects)
  }
  @inlinable @inline(__always) public mutating func updateObjects<R>(_ body: (inout Objects) -> R) -> R {
    body(&objects)
  }

  /// Raises L to the lowest priority in use when its class has emptied (never above the
  /// highest hit priority, as the peer's bucket scan).
  @inlinable
  mutating func ageAfterEmptying(_ priority: Int64) {
    guard objects.heap.isEmpty || objects.heap.minimumKey.priority != priority else { return }
    if !objects.heap.isEmpty, objects.heap.minimumKey.priority <= highest { age = objects.heap.minimumKey.priority }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = objects.arena.find(request.key)
    guard slot >= 0 else { return false }
    // A parked object (see below) keeps its real priority in the key's sequence.
    let stored = objects.heap.key(of: slot)
    let priority = stored.priority == .max ? stored.sequence : stored.priority
    // A hit adds L, so a hot object's priority can double on every hit: like the peer's
    // int64 arithmetic, it wraps instead of trapping (the order stays total either way).
    let raised = priority &+ age
    highest = max(highest, raised)
    objects.heap.remove(slot)
    if age == priority { ageAfterEmptying(priority) }
    sequence += 1
    // libCacheSim (LFUDA_find) scans for the new L before re-adding the hit object, so L can
    // pass it. Its evictions take only class L and its scans go upward, so such an object is
    // neither evicted nor found by a scan until its next hit: it is parked after every other.
    let key =
      raised < age ? IntegerPriority(.max, sequence: raised) : IntegerPriority(raised, sequence: sequence)
    objects.heap.insert(slot, key: key)
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    // libCacheSim's LFUDA_insert raises max_freq to the new object's class L + 1 when it
    // creates that class's node, so the bucket scan after an eviction can reach it. Nodes are
    // never freed and every other one was created by a raise, so this is every class but 1
    // (whose node exists from the start without raising max_freq).
    let priority = age &+ 1
    if priority > 1 { highest = max(highest, priority) }
    sequence += 1
    objects.insert(request, extra: (), priority: IntegerPriority(age &+ 1, sequence: sequence))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let priority = age <= 1 ? 1 : age
    age = priority
    victims.record(objects.popMinimum())
    ageAfterEmptying(priority)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = objects.arena.find(key)
    guard slot >= 0 else { return nil }
    let priority = objects.heap.key(of: slot).priority
    objects.heap.remove(slot)
    if age == priority { ageAfterEmptying(priority) }
    return objects.release(slot)
  }
}
