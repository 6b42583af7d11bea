import CacheCore

/// A policy that keeps every cached object in one slot arena and one queue, new objects at
/// the head (fifo, lru, clock, sieve, mru). The shell they share is here: occupancy,
/// insertion, removal, lookups by key and slot, the self-check, and an access that looks the
/// key up and hands the slot to the policy's ``PolicyLoopHooks/hit(_:at:)`` (a hit changes
/// nothing unless the policy says so), a miss step (``admitMissing(_:collecting:admission:)``)
/// shared by the replay template and the engine's tier; eviction takes the tail unless the
/// policy says otherwise. Slots are stable.
///
/// A policy reaches its storage through two accessors rather than property requirements,
/// which keeps non-copyable storage out of protocol accessors (their coroutine frames are
/// heap-allocated in debug builds).
public protocol SingleQueuePolicy: EvictionPolicy, ~Copyable {
  /// The per-object field of the arena.
  associatedtype Extra
  /// The field of a newly inserted object.
  static var initialExtra: Extra { get }
  /// Calls `body` with the arena and the queue.
  func withQueue<R, E: Error>(_ body: QueueReading<Extra, R, E>) throws(E) -> R
  /// Calls `body` with the arena and the queue to change.
  mutating func updateQueue<R>(_ body: QueueUpdating<Extra, R>) -> R
  /// The miss step of both ``EvictionPolicy/handle(_:collecting:admission:)`` and
  /// ``PolicyLoopHooks/insertMissing(_:collecting:admission:)``: admits or refuses `request`
  /// (not cached), evicting into `victims`; returns the outcome and the new object's slot
  /// (-1 when refused). The default is the template's: refused when not admitted or larger
  /// than the cache, else objects leave by ``EvictionPolicy/evict(collecting:)`` until it fits.
  mutating func admitMissing<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> (outcome: Outcome, slot: Int32)
}

/// What ``SingleQueuePolicy/withQueue(_:)`` runs: reads the arena and the queue.
public typealias QueueReading<Extra, R, E: Error> = (borrowing SlotArena<Extra>, borrowing SlotList) throws(E) -> R
/// What ``SingleQueuePolicy/updateQueue(_:)`` runs: changes the arena and the queue.
public typealias QueueUpdating<Extra, R> = (inout SlotArena<Extra>, inout SlotList) -> R

extension SingleQueuePolicy where Self: ~Copyable, Extra == Void {
  @inlinable public static var initialExtra: Void { () }
}

extension SingleQueuePolicy where Self: ~Copyable {
  @inlinable public var occupiedBytes: Int64 { withQueue { _, queue in queue.bytes } }
  @inlinable public var objectCount: Int { withQueue { _, queue in queue.count } }
  public var storageBytes: Int { withQueue { arena, _ in arena.memoryFootprint } }

  @inlinable @inline(__always)
  public mutating func access(_ request: Request) -> Bool {
    let slot = slot(of: request.key)
    guard slot >= 0 else { return false }
    hit(request, at: slot)
    return true
  }

  @inlinable @inline(__always)
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    return admitMissing(request, collecting: &victims, admission: admission).outcome
  }

  @inlinable @inline(__always)
  public mutating func admitMissing<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> (outcome: Outcome, slot: Int32) {
    if !admission.admits(request) || request.size > capacity { return (.rejected, -1) }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    return (.inserted, insertReturningSlot(request))
  }

  public mutating func insertMissing(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> (outcome: Outcome, slot: Int32) {
    ArrayVictimSink.filling(&victims) { sink in
      if let admission { return admitMissing(request, collecting: &sink, admission: admission) }
      return admitMissing(request, collecting: &sink, admission: AdmitAll())
    }
  }

  /// A hit changes nothing (FIFO order).
  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) {}

  @inlinable
  public mutating func insert(_ request: Request) { _ = insertReturningSlot(request) }

  @inlinable @inline(__always)
  public mutating func insertReturningSlot(_ request: Request) -> Int32 {
    updateQueue { arena, queue in
      let slot = arena.insert(key: request.key, size: request.size, extra: Self.initialExtra)
      arena.pushFront(slot, to: &queue)
      return slot
    }
  }

  /// Evicts the tail: the oldest insertion (or, in LRU order, the least recently used), and
  /// starts loading what evicting the next tail will touch.
  @inlinable @inline(__always)
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    victims.record(
      updateQueue { arena, queue in
        let victim = arena.evict(queue.tail, from: &queue)
        arena.prefetchEviction(of: queue.tail)
        return victim
      })
  }

  @inlinable @inline(__always)
  public mutating func remove(_ key: UInt64) -> Victim? {
    updateQueue { arena, queue in arena.evict(key: key, from: &queue) }
  }

  /// Every object keeps its arena slot while cached.
  @inlinable public static var slotsAreStable: Bool { true }

  @inlinable @inline(__always)
  public func slot(of key: UInt64) -> Int32 { withQueue { arena, _ in arena.find(key) } }

  /// Reads the slot itself: keys are unique in the arena, so a live slot holding `key` is its slot.
  @inlinable @inline(__always)
  public func holds(_ key: UInt64, at slot: Int32) -> Bool {
    withQueue { arena, _ in arena.isLive(slot) && arena[slot].key == key }
  }

  @inlinable @inline(__always)
  public func contains(_ key: UInt64) -> Bool { withQueue { arena, _ in arena.contains(key) } }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { withQueue { arena, _ in arena.prefetch(key, stage: stage) } }

  /// Occupancy, the index and the queue holding every object.
  public func checkQueue() throws(InvariantViolation) {
    try checkOccupancy()
    try withQueue { (arena, queue) throws(InvariantViolation) in
      try arena.checkSoleList(queue, named: "\(Self.descriptor.name) queue")
    }
  }

  public func checkInvariants() throws(InvariantViolation) { try checkQueue() }
}
