import CacheCore

/// Most recently used: a hit moves the object to the head and the head is evicted, so the
/// object used last leaves first (good for loops larger than the cache).
///
/// Origin: Chou & DeWitt 1985; semantics as libCacheSim's `MRU.c`.
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct MRU: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "mru",
    summary: "most recently used: evicts the object requested last",
    origin: "Chou & DeWitt, VLDB 1985; libCacheSim MRU.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    libCacheSim: .none(reason: "libCacheSim has MRU.c but the 0.3.5 package exports no MRU_init"))

  @usableFromInline var lru: LRU

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    lru = LRU(capacity: capacity, parameters: parameters, context: context)
  }

  @inlinable public var capacity: Int64 { lru.capacity }
  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<Void, R, E>) throws(E) -> R {
    try lru.withQueue(body)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<Void, R>) -> R {
    lru.updateQueue(body)
  }
  @inlinable public mutating func hit(_ request: Request, at slot: Int32) { lru.hit(request, at: slot) }

  /// Evicts the head of the recency list: the most recently used object.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    victims.record(lru.arena.evict(lru.queue.head, from: &lru.queue))
  }
}
