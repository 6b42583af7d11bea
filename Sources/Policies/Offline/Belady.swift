import CacheCore

/// Belady's MIN: evicts the object whose next request is farthest in the future (objects
/// never requested again first). The offline optimum for equal-sized objects.
///
/// Needs each request's next-access index: oracle traces carry it; for other formats the
/// replayer computes it in a pre-pass. Objects never requested again are still inserted and
/// leave first. Ties (only among never-again objects) go to the earliest inserted. With
/// `bypass=true` a missed object whose next request is no nearer than every cached object's
/// is not inserted: the offline optimum for unit sizes among all policies (without bypass,
/// among those that must cache every missed object, as libCacheSim's).
/// Origin: Belady, "A study of replacement algorithms for a virtual-storage computer",
/// IBM Systems Journal 1966; semantics as libCacheSim's `Belady.c`.
/// Memory: 32-byte node + 4-byte bucket + 24 bytes of heap entry per object.
public struct Belady: HeapOrderedPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "belady",
    aliases: ["opt", "min"],
    summary: "offline optimum: evicts the object requested farthest in the future",
    origin: "Belady, IBM Systems Journal 1966; libCacheSim Belady.c",
    parameters: [
      ParameterSpec(
        "bypass", default: "false", .boolean,
        help: "do not insert an object whose next request is farther than every cached object's (optimal with bypass)")
    ],
    memoryPerObject: "60 B (32 B node + 4 B bucket + 24 B heap entry)",
    needsNextAccess: true,
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "bypass=false", constructor: "Belady_init",
        note: "replayed on an oracleGeneral copy with next-access times", reference: LibCacheSimReference("belady"))
    ]))

  /// Min-heap on (distance from infinity, insertion order): the farthest next access first.
  @usableFromInline var objects: Objects
  @usableFromInline var sequence: Int64 = 0
  @usableFromInline let bypass: Bool
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    bypass = parameters.boolean("bypass")
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

  /// Heap priority of a next-access index: 0 for never, smaller for farther.
  @inlinable
  static func priority(_ nextAccess: Int64) -> Int64 {
    nextAccess < 0 ? 0 : Int64.max - nextAccess
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = objects.arena.find(request.key)
    guard slot >= 0 else { return false }
    let sequence = objects.heap.key(of: slot).sequence
    objects.heap.update(slot, key: IntegerPriority(Self.priority(request.nextAccess), sequence: sequence))
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    sequence += 1
    objects.insert(request, extra: (), priority: IntegerPriority(Self.priority(request.nextAccess), sequence: sequence))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    victims.record(objects.popMinimum())
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    if bypass, objects.bytes + request.size > capacity, !objects.heap.isEmpty,
      Self.priority(request.nextAccess) <= objects.heap.minimumKey.priority
    {
      return .rejected
    }
    while objects.bytes + request.size > capacity { evict(collecting: &victims) }
    insert(request)
    return .inserted
  }
}
