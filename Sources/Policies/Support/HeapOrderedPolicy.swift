import CacheCore

/// A policy that keeps its cached objects in one ``HeapOrderedObjects`` storage, evicting by
/// a per-object key (belady, gdsf, lfuda, nscache-order). The shell they share is here:
/// occupancy, removal, lookups, prefetching and the self-check; the policy states its order
/// (what a hit, an insertion and an eviction do to the keys).
///
/// As with ``SingleQueuePolicy``, the storage is reached through two accessors rather than a
/// property requirement, which keeps non-copyable storage out of protocol accessors.
public protocol HeapOrderedPolicy: EvictionPolicy, ~Copyable {
  /// The per-object field of the arena.
  associatedtype Extra
  /// The heap's ordering key.
  associatedtype Key: Comparable
  /// Calls `body` with the storage.
  func withObjects<R, E: Error>(_ body: (borrowing HeapOrderedObjects<Extra, Key>) throws(E) -> R) throws(E) -> R
  /// Calls `body` with the storage to change.
  mutating func updateObjects<R>(_ body: (inout HeapOrderedObjects<Extra, Key>) -> R) -> R
}

extension HeapOrderedPolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { withObjects { objects in objects.totalBytes } }
  @inlinable public var objectCount: Int { withObjects { objects in objects.count } }
  public var storageBytes: Int { withObjects { objects in objects.memoryFootprint } }

  public mutating func remove(_ key: UInt64) -> Victim? { updateObjects { objects in objects.remove(key) } }

  public func contains(_ key: UInt64) -> Bool { withObjects { objects in objects.contains(key) } }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { withObjects { objects in objects.prefetch(key, stage: stage) } }

  /// Occupancy within capacity and the storage's own check (index, heap order, byte total).
  public func checkObjects() throws(InvariantViolation) {
    try checkOccupancy()
    try withObjects { (objects) throws(InvariantViolation) in try objects.check() }
  }

  public func checkInvariants() throws(InvariantViolation) { try checkObjects() }
}
