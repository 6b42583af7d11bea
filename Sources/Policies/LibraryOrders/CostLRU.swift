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
public struct CostLRU: SingleQueuePolicy, ~Copyable {
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
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    libCacheSim: .none(reason: "CacheLab-only (Nuke-style cost-bounded LRU)"))

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

  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<Void, R, E>) throws(E) -> R {
    try lru.withQueue(body)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<Void, R>) -> R {
    lru.updateQueue(body)
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) { lru.hit(request, at: slot) }

  /// A miss: refused above the entry limit, else least recently used objects leave until the
  /// cost and the count fit; returns the outcome and the new object's slot (-1 if refused).
  @inlinable
  public mutating func admitMissing<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> (outcome: Outcome, slot: Int32) {
    if !admission.admits(request) || request.size > entryLimit { return (.rejected, -1) }
    while lru.occupiedBytes + request.size > lru.capacity { lru.evict(collecting: &victims) }
    if countLimit > 0 {
      while lru.objectCount >= countLimit { lru.evict(collecting: &victims) }
    }
    return (.inserted, lru.insertReturningSlot(request))
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkQueue()
    guard countLimit == 0 || objectCount <= countLimit else {
      throw InvariantViolation("\(objectCount) objects above count limit \(countLimit)")
    }
  }
}
