import CacheCore

/// The eviction order of swift-corelibs-foundation's `NSCache` on Linux: cheapest first,
/// and among equal costs the newest first.
///
/// Reads have no effect. A re-store at an unchanged cost keeps the object's place; at a new
/// cost it is placed as a new insertion. A new object is inserted first (its cost being its size here);
/// then, while the total cost exceeds the capacity, the cheapest object is removed — possibly
/// the new one — and with `count-limit`, the cheapest objects are removed until at most that
/// many remain. There is no admission check: an object costing more than the capacity is
/// inserted and immediately purged together with everything cheaper. Origin: seed-systems
/// §4.1 (`NSCache.swift`: list sorted by cost, insert before equal costs, purge from the head).
/// Memory: 32-byte node + 4-byte bucket + 24 bytes of heap entry per object.
public struct NSCacheOrder: HeapOrderedPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "nscache",
    summary:
      "Linux Foundation NSCache: evicts the cheapest object, newest first among equal costs; a re-store at an unchanged cost keeps its place",
    origin: "swift-corelibs-foundation NSCache.swift (cost-sorted list)",
    parameters: [
      ParameterSpec(
        "count-limit", default: "0", .integer(0...Int64(Int32.max)), help: "maximum number of objects (0: none)")
    ],
    memoryPerObject: "60 B (32 B node + 4 B bucket + 24 B heap entry)",
    insertsBeforeTrimming: true,
    libCacheSim: .none(reason: "CacheLab-only (Foundation NSCache order)"))

  /// Heap order: lower cost first, then the later insertion first.
  public struct Order: Comparable {
    @usableFromInline var cost: Int64
    @usableFromInline var sequence: Int64

    @inlinable init(cost: Int64, sequence: Int64) {
      self.cost = cost
      self.sequence = sequence
    }

    @inlinable public static func < (a: Order, b: Order) -> Bool {
      a.cost != b.cost ? a.cost < b.cost : a.sequence > b.sequence
    }
  }

  @usableFromInline var objects: Objects
  @usableFromInline var sequence: Int64 = 0
  @usableFromInline let countLimit: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    countLimit = Int(parameters.integer("count-limit"))
    objects = HeapOrderedObjects(capacity: capacity)
  }

  public typealias Objects = HeapOrderedObjects<Void, Order>

  @inlinable @inline(__always) public func withObjects<R, E>(_ body: (borrowing Objects) throws(E) -> R) throws(E) -> R
  {
    try body(objects)
  }
  @inlinable @inline(__always) public mutating func updateObjects<R>(_ body: (inout Objects) -> R) -> R {
    body(&objects)
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { objects.arena.contains(request.key) }

  @inlinable
  public mutating func insert(_ request: Request) {
    sequence += 1
    objects.insert(request, extra: (), priority: Order(cost: request.size, sequence: sequence))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    victims.record(objects.popMinimum())
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if objects.arena.contains(request.key) { return .hit }
    guard admission.admits(request) else { return .rejected }
    insert(request)
    return purge(request.key, collecting: &victims)
  }

  /// `setObject(_:forKey:cost:)`: a cached object re-stored at the same cost keeps its place;
  /// at another cost it moves as a new insertion. Either way the purges run afterwards.
  @inlinable
  public mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    guard admission.admits(request) else {
      _ = objects.remove(request.key)
      return .rejected
    }
    let slot = objects.arena.find(request.key)
    if slot < 0 || objects.arena[slot].size != request.size {
      if slot >= 0 { _ = objects.remove(request.key) }
      insert(request)
    }
    return purge(request.key, collecting: &victims)
  }

  /// Pops the cheapest objects while over the cost limit, then while over the count limit.
  @inlinable
  mutating func purge<Sink: VictimSink>(_ key: UInt64, collecting victims: inout Sink) -> Outcome {
    while objects.bytes > capacity { evict(collecting: &victims) }
    if countLimit > 0 {
      while objects.count > countLimit { evict(collecting: &victims) }
    }
    return objects.arena.contains(key) ? .inserted : .rejected
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkObjects()
    guard countLimit == 0 || objects.count <= countLimit else {
      throw InvariantViolation("\(objects.count) objects above count limit \(countLimit)")
    }
  }
}
