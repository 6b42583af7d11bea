import CacheCore

/// A policy built on ``GhostedQueues`` (the S3-FIFO family and QD-LP): the bookkeeping they
/// share. A policy with more state (S3-FIFO-D's adaptive queues) declares its own versions.
public protocol GhostedQueuePolicy: EvictionPolicy, ~Copyable {
  /// The small, main and ghost queues over one arena.
  var queues: GhostedQueues { get set }
}

extension GhostedQueuePolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { queues.occupiedBytes }
  @inlinable public var objectCount: Int { queues.objectCount }
  public var storageBytes: Int { queues.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    queues.lookup(request.key) == .cached
  }

  public mutating func remove(_ key: UInt64) -> Victim? { queues.remove(key) }

  public func contains(_ key: UInt64) -> Bool { queues.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { queues.arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try queues.check()
  }
}

/// A policy of the S3-FIFO family that admits objects as libCacheSim's S3-FIFO does: one
/// larger than the small FIFO is refused; room is made one ``evictStep(into:)`` at a time;
/// a ghost hit enters main, anything else the small FIFO (refused, after the evictions made
/// for it, when at least as large as small).
public protocol SmallFIFOPolicy: GhostedQueuePolicy, ~Copyable {
  /// Capacity of the small FIFO.
  var smallCapacity: Int64 { get }
  /// One eviction step (a step may only move objects between queues).
  mutating func evictStep<Sink: VictimSink>(into victims: inout Sink)
}

extension SmallFIFOPolicy where Self: ~Copyable {
  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome {
    let found = queues.lookup(request.key)
    if found == .cached { return .hit }
    if request.size > smallCapacity || !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evictStep(into: &victims) }
    if found == .ghost {
      queues.insert(request, into: QueueState.main)
    } else {
      if request.size >= smallCapacity { return .rejected }
      insert(request)
    }
    return .inserted
  }
}
