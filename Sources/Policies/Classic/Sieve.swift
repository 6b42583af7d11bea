import CacheCore

/// SIEVE: FIFO order with a visited bit and a hand that sweeps from old to new.
///
/// A hit sets the visited bit. Eviction resumes at the hand (the tail on the first
/// eviction or after a full sweep), clears visited bits while moving towards the head,
/// evicts the first unvisited object and leaves the hand at the next newer object.
/// Objects never move. Origin: Zhang et al., "SIEVE is Simpler than LRU", NSDI '24;
/// semantics as libCacheSim's `Sieve.c`.
/// Memory: one 32-byte arena node (bit in the node) + a 4-byte bucket per object.
public struct Sieve: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "sieve",
    summary: "FIFO with a visited bit and a sweeping hand; hits never move objects",
    origin: "Zhang et al., SIEVE is Simpler than LRU, NSDI 2024; libCacheSim Sieve.c",
    memoryPerObject: "36 B (32 B node with visited bit + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "Sieve_init", reference: LibCacheSimReference("sieve"))
    ]))

  @usableFromInline var arena: SlotArena<Bool>
  @usableFromInline var queue = SlotList()
  /// Next candidate, or -1 to start from the tail.
  @usableFromInline var hand: Int32 = -1
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public static var initialExtra: Bool { false }
  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<Bool, R, E>) throws(E) -> R {
    try body(arena, queue)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<Bool, R>) -> R {
    body(&arena, &queue)
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) { arena[slot].extra = true }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var slot = hand >= 0 ? hand : queue.tail
    while arena[slot].extra {
      arena[slot].extra = false
      let newer = arena[slot].prev
      slot = newer >= 0 ? newer : queue.tail
    }
    hand = arena[slot].prev
    victims.record(arena.evict(slot, from: &queue))
    // The hand's node is cached (the unlink wrote it); start loading what the next sweep
    // reads first: the node after it and its bucket, should it be the victim.
    arena.prefetchEviction(of: hand)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    if slot == hand { hand = arena[slot].prev }
    return arena.evict(slot, from: &queue)
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkQueue()
    guard hand < 0 || arena.isLive(hand) else {
      throw InvariantViolation("hand \(hand) points at a free slot")
    }
  }
}
