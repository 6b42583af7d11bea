import CacheCore

/// A policy that keeps every cached object in one arena on one list (LRU, FIFO, CLOCK,
/// SIEVE): the bookkeeping they share. An object keeps its arena slot while cached, so the
/// slots are stable (an engine tier keeps its metadata by them).
public protocol SingleQueuePolicy: EvictionPolicy, ~Copyable {
  associatedtype Extra
  /// The cached objects, one arena node each.
  var arena: SlotArena<Extra> { get set }
  /// Their order (recency, insertion or the clock, as the policy defines it).
  var queue: SlotList { get set }
}

extension SingleQueuePolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { queue.bytes }
  @inlinable public var objectCount: Int { queue.count }
  public var storageBytes: Int { arena.memoryFootprint }

  /// Every object keeps its arena slot while cached.
  public static var slotsAreStable: Bool { true }

  public func slot(of key: UInt64) -> Int32 { arena.find(key) }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }
}
