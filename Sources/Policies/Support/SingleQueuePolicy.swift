import CacheCore

/// A policy that keeps every cached object in one arena on one list (LRU, FIFO, CLOCK,
/// SIEVE): the bookkeeping they share. An object keeps its arena slot while cached, so the
/// slots are stable (an engine tier keeps its metadata by them). Each policy declares its own
/// `slot(of:)` (`arena.find`): a shared generic copy measured 10 % slower on the engine path.
public protocol SingleQueuePolicy: ArenaPolicy, ~Copyable {
  /// The order of the arena's objects (recency, insertion or the clock, as the policy defines it).
  var queue: SlotList { get set }
}

extension SingleQueuePolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { queue.bytes }
  @inlinable public var objectCount: Int { queue.count }
  @inlinable public var storageBytes: Int { arena.memoryFootprint }

  /// Every object keeps its arena slot while cached.
  @inlinable public static var slotsAreStable: Bool { true }
}
