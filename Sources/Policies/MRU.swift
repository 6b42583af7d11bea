import CacheCore

/// Most recently used: a hit moves the object to the head and the head is evicted, so the
/// object used last leaves first (good for loops larger than the cache).
///
/// Origin: Chou & DeWitt 1985; semantics as libCacheSim's `MRU.c`.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct MRU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "mru",
    summary: "most recently used: evicts the object requested last",
    origin: "Chou & DeWitt, VLDB 1985; libCacheSim MRU.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket)")

  @usableFromInline var lru: LRU

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    lru = LRU(capacity: capacity, parameters: parameters, context: context)
  }

  @inlinable public var capacity: Int64 { lru.capacity }
  @inlinable public var occupiedBytes: Int64 { lru.occupiedBytes }
  @inlinable public var objectCount: Int { lru.objectCount }
  public var storageBytes: Int { lru.storageBytes }

  @inlinable public mutating func access(_ request: Request) -> Bool { lru.access(request) }
  @inlinable public mutating func insert(_ request: Request) { lru.insert(request) }
  @inlinable public mutating func hit(_ request: Request, at slot: Int32) { lru.hit(request, at: slot) }
  @inlinable public mutating func insertReturningSlot(_ request: Request) -> Int32 { lru.insertReturningSlot(request) }

  /// Evicts the head of the recency list: the most recently used object.
  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    victims.record(lru.arena.evict(lru.queue.head, from: &lru.queue))
  }

  public mutating func remove(_ key: UInt64) -> Victim? { lru.remove(key) }
  /// Every object keeps its arena slot while cached.
  public static var slotsAreStable: Bool { true }

  public func slot(of key: UInt64) -> Int32 { lru.slot(of: key) }

  public func contains(_ key: UInt64) -> Bool { lru.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { lru.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) { try lru.checkInvariants() }
}
