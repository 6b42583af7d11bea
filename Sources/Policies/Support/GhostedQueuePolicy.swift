import CacheCore

/// A policy kept in ``GhostedQueues`` (small, main and ghost FIFOs: s3fifo, s3fifo-2024,
/// s3fifo-d, qdlp). The shell they share is here: occupancy, an access that is a queue lookup,
/// insertion into small, removal, lookups, the self-check, libCacheSim's S3-FIFO admission
/// (``handleSmallFirst(_:collecting:admission:smallCapacity:step:)``) and eviction by steps until
/// an object left (``evictByStepping(into:step:)``).
///
/// A policy reaches its queues through two accessors rather than a property requirement, which
/// keeps non-copyable storage out of protocol accessors (their coroutine frames are
/// heap-allocated in debug builds).
public protocol GhostedQueuePolicy: EvictionPolicy, ~Copyable {
  /// Calls `body` with the queues.
  func withQueues<R, E: Error>(_ body: (borrowing GhostedQueues) throws(E) -> R) throws(E) -> R
  /// Calls `body` with the queues to change.
  mutating func updateQueues<R>(_ body: (inout GhostedQueues) -> R) -> R
}

extension GhostedQueuePolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { withQueues { $0.occupiedBytes } }
  @inlinable public var objectCount: Int { withQueues { $0.objectCount } }
  public var storageBytes: Int { withQueues { $0.memoryFootprint } }

  @inlinable @inline(__always)
  public mutating func access(_ request: Request) -> Bool {
    updateQueues { $0.lookup(request.key) == .cached }
  }

  /// New objects enter small.
  @inlinable @inline(__always)
  public mutating func insert(_ request: Request) {
    updateQueues { _ = $0.insert(request, into: QueueState.small) }
  }

  public mutating func remove(_ key: UInt64) -> Victim? { updateQueues { $0.remove(key) } }

  public func contains(_ key: UInt64) -> Bool { withQueues { $0.contains(key) } }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { withQueues { $0.arena.prefetch(key, stage: stage) } }

  /// Occupancy and the queues' own invariants.
  public func checkQueues() throws(InvariantViolation) {
    try checkOccupancy()
    try withQueues { (queues) throws(InvariantViolation) in try queues.check() }
  }

  public func checkInvariants() throws(InvariantViolation) { try checkQueues() }

  /// libCacheSim's S3-FIFO admission: a hit, or a miss refused when larger than small (or
  /// not admitted, or larger than the cache); otherwise `step` makes room one eviction step at
  /// a time, a ghost hit enters main and any other object small, unless it would fill small.
  @inlinable @inline(__always)
  public mutating func handleSmallFirst<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate, smallCapacity: Int64,
    step: (inout Self, inout Sink) -> Void
  ) -> Outcome {
    let found = updateQueues { $0.lookup(request.key) }
    if found == .cached { return .hit }
    if request.size > smallCapacity || !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { step(&self, &victims) }
    if found == .ghost {
      updateQueues { _ = $0.insert(request, into: QueueState.main) }
    } else {
      if request.size >= smallCapacity { return .rejected }
      insert(request)
    }
    return .inserted
  }

  /// Runs `step` until at least one object has left the cache.
  @inlinable @inline(__always)
  public mutating func evictByStepping<Sink: VictimSink>(
    collecting victims: inout Sink, step: (inout Self, inout Sink) -> Void
  ) {
    let before = objectCount
    while objectCount == before { step(&self, &victims) }
  }
}

/// How an S3-FIFO-family policy splits its capacity between small and main, and how many
/// accesses in small promote an object: from its `small` and `threshold` parameters.
@frozen
public struct SmallMainSplit: Sendable {
  /// Bytes (or objects) of small, and of main: the rest of the capacity.
  public var small: Int64
  public var main: Int64
  /// Accesses in small that move an object to main.
  public let threshold: UInt8

  public init(capacity: Int64, parameters: Parameters) {
    small = Int64(Double(capacity) * parameters.real("small"))
    main = capacity - small
    threshold = UInt8(parameters.integer("threshold"))
  }
}
