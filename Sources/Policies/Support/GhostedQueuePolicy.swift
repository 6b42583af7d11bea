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
