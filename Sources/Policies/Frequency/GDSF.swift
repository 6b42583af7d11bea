import CacheCore

/// Greedy-Dual-Size-Frequency: evicts the object with the lowest L + frequency × cost / size,
/// where L is the priority of the last evicted object, so small popular objects stay.
///
/// As libCacheSim's `cpp/GDSF.cpp` (2023): the cost is the constant 10^6, priorities are
/// doubles computed as L + (frequency × 10^6) / size when the object is inserted (frequency 1)
/// or hit, ties go to the object inserted or hit longest ago, and eviction runs before
/// insertion. Origin: Cherkasova, "Improving WWW proxies performance with Greedy-Dual-Size-
/// Frequency caching policy", HP Labs 1998; libCacheSim `GDSF.cpp`.
/// Memory: 40-byte node (frequency in the node) + 4-byte bucket + 24 bytes of heap entry.
public struct GDSF: HeapOrderedPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "gdsf",
    summary: "greedy-dual size frequency: lowest L + frequency * 1e6 / size leaves first",
    origin: "Cherkasova, HP Labs 1998; libCacheSim cpp/GDSF.cpp",
    memoryPerObject: "68 B (40 B node with frequency + 4 B bucket + 24 B heap entry)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "GDSF_init", reference: LibCacheSimReference("gdsf"))
    ]))

  /// Per-object state: the request frequency since insertion.
  @usableFromInline var objects: Objects
  /// Index of the current request (the peer's `n_req`), the tie-breaker.
  @usableFromInline var clock: Int64 = 0
  /// L: the priority of the last evicted object.
  @usableFromInline var inflation: Double = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    objects = HeapOrderedObjects(capacity: capacity)
  }

  public typealias Objects = HeapOrderedObjects<Int64, RealPriority>

  @inlinable @inline(__always) public func withObjects<R, E>(_ body: (borrowing Objects) throws(E) -> R) throws(E) -> R
  {
    try body(objects)
  }
  @inlinable @inline(__always) public mutating func updateObjects<R>(_ body: (inout Objects) -> R) -> R {
    body(&objects)
  }

  @inlinable
  func priority(frequency: Int64, size: Int64) -> Double {
    inflation + Double(frequency) * 1.0e6 / Double(size)
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = objects.arena.find(request.key)
    guard slot >= 0 else { return false }
    objects.arena[slot].extra += 1
    let node = objects.arena[slot]
    objects.heap.update(slot, key: RealPriority(priority(frequency: node.extra, size: node.size), sequence: clock))
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    objects.insert(
      request, extra: 1, priority: RealPriority(priority(frequency: 1, size: request.size), sequence: clock))
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    clock += 1
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while objects.bytes + request.size > capacity { evict(collecting: &victims) }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    inflation = objects.heap.minimumKey.priority
    victims.record(objects.popMinimum())
  }
}
