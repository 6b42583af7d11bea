import CacheCore

/// LRU bounded by total cost, with an optional object-count limit and an admission limit
/// per entry: the memory caches of NSCache-style libraries with a cost limit (Nuke's
/// `ImageCache`: `costLimit`, `countLimit`, entries must cost < 10 % of the limit).
///
/// The engine gives each object's cost as its size (a tier configured for cost passes the
/// request's cost). A miss is admitted only if `cost < entry-limit × capacity` (or
/// `entry-limit=1`, which admits anything that fits); then least recently used objects
/// are evicted until the total cost fits and, with `count-limit`, until at most that many
/// objects remain. Origin: seed-systems §6.1 (Nuke ≤ 13.0 strict LRU), NSCache cost limits.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct CostLRU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "cost-lru",
    summary: "LRU bounded by total cost, with optional count limit and per-entry admission limit",
    origin: "NSCache-style cost-limited caches; Nuke ImageCache (costLimit, countLimit, entryCostLimit)",
    parameters: [
      ParameterSpec(
        "count-limit", default: "0", .integer(0...Int64(Int32.max)), help: "maximum number of objects (0: none)"),
      ParameterSpec(
        "entry-limit", default: "1", .real(0.000001...1),
        help: "admit only objects costing less than this fraction of the capacity (1: anything that fits)"),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket)")

  @usableFromInline var lru: LRU
  @usableFromInline let countLimit: Int
  @usableFromInline let entryLimit: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    lru = LRU(capacity: capacity, parameters: parameters, context: context)
    countLimit = Int(parameters.integer("count-limit"))
    let fraction = parameters.real("entry-limit")
    entryLimit = fraction >= 1 ? capacity : Int64((Double(capacity) * fraction).rounded(.up)) - 1
  }

  @inlinable public var capacity: Int64 { lru.capacity }
  @inlinable public var occupiedBytes: Int64 { lru.occupiedBytes }
  @inlinable public var objectCount: Int { lru.objectCount }
  public var storageBytes: Int { lru.storageBytes }

  @inlinable public mutating func access(_ request: Request) -> Bool { lru.access(request) }
  @inlinable public mutating func insert(_ request: Request) { lru.insert(request) }
  @inlinable public mutating func evict<Sink: VictimSink>(into victims: inout Sink) { lru.evict(into: &victims) }
  public mutating func remove(_ key: UInt64) -> Victim? { lru.remove(key) }
  public func contains(_ key: UInt64) -> Bool { lru.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { lru.prefetch(key, stage: stage) }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome {
    if lru.access(request) { return .hit }
    if !admission.admits(request) || request.size > entryLimit { return .rejected }
    while lru.occupiedBytes + request.size > lru.capacity { lru.evict(into: &victims) }
    if countLimit > 0 {
      while lru.objectCount >= countLimit { lru.evict(into: &victims) }
    }
    lru.insert(request)
    return .inserted
  }

  public func checkInvariants() throws(InvariantViolation) {
    try lru.checkInvariants()
    guard countLimit == 0 || objectCount <= countLimit else {
      throw InvariantViolation("\(objectCount) objects above count limit \(countLimit)")
    }
  }
}
