import CacheCore

/// Per-object state of the multi-queue FIFO policies (S3-FIFO, QDLP): which queue the
/// entry is in and its access counter, packed into two bytes of the arena node.
@frozen
public struct QueueState: Equatable, Sendable {
  /// Queue identifiers.
  public static let small: UInt8 = 0
  public static let main: UInt8 = 1
  public static let ghost: UInt8 = 2

  /// ``small``, ``main`` or ``ghost``.
  public var queue: UInt8
  /// Accesses counted while in the queue (saturating at 255).
  public var frequency: UInt8

  @inlinable
  public init(queue: UInt8, frequency: UInt8 = 0) {
    self.queue = queue
    self.frequency = frequency
  }

  /// Adds one access, saturating.
  @inlinable
  public mutating func touch() {
    if frequency < .max { frequency += 1 }
  }
}

/// The storage of the small-queue/main-queue/ghost-queue policies (S3-FIFO, QDLP): one
/// arena, three FIFO lists, and the ghost queue's byte bound.
public struct GhostedQueues: ~Copyable {
  @usableFromInline var arena: SlotArena<QueueState>
  @usableFromInline var small = SlotList()
  @usableFromInline var main = SlotList()
  @usableFromInline var ghost = SlotList()
  @usableFromInline var ghostCapacity: Int64
  /// Highest access counter a main-queue hit reaches (255: unbounded in practice).
  @usableFromInline let mainMaximum: UInt8

  /// What a lookup found.
  @usableFromInline
  enum Lookup { case cached, ghost, absent }

  init(capacity: Int64, ghostCapacity: Int64, mainMaximum: UInt8) {
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    self.ghostCapacity = ghostCapacity
    self.mainMaximum = mainMaximum
  }

  /// Queues whose ghost queue holds `ghostShare` × `capacity` bytes.
  init(capacity: Int64, ghostShare: Double, mainMaximum: UInt8) {
    self.init(capacity: capacity, ghostCapacity: Int64(Double(capacity) * ghostShare), mainMaximum: mainMaximum)
  }

  @inlinable var occupiedBytes: Int64 { small.bytes + main.bytes }
  @inlinable var objectCount: Int { small.count + main.count }

  /// A hit counts an access (capped at ``mainMaximum`` in main); a ghost entry is consumed.
  @inlinable
  mutating func lookup(_ key: UInt64) -> Lookup {
    let slot = arena.find(key)
    guard slot >= 0 else { return .absent }
    switch arena[slot].extra.queue {
    case QueueState.ghost:
      _ = arena.evict(slot, from: &ghost)
      return .ghost
    case QueueState.main:
      if arena[slot].extra.frequency < mainMaximum { arena[slot].extra.frequency += 1 }
    default:
      arena[slot].extra.touch()
    }
    return .cached
  }

  /// Puts a new entry at the head of `queue` (small or main) with a zero counter.
  @inlinable
  @discardableResult
  mutating func insert(_ request: Request, into queue: UInt8) -> Int32 {
    let slot = arena.insert(key: request.key, size: request.size, extra: QueueState(queue: queue))
    if queue == QueueState.main { arena.pushFront(slot, to: &main) } else { arena.pushFront(slot, to: &small) }
    return slot
  }

  /// Main's CLOCK: reinserts its oldest objects while their counters are non-zero, setting
  /// each to `nextCounter(counter)`, and evicts the first with a zero counter. O(1)
  /// amortised per reinsertion.
  @inlinable
  mutating func evictMain<Sink: VictimSink>(collecting victims: inout Sink, nextCounter: (UInt8) -> UInt8) {
    while true {
      let slot = main.tail
      let frequency = arena[slot].extra.frequency
      if frequency >= 1 {
        arena[slot].extra.frequency = nextCounter(frequency)
        arena.moveToFront(slot, in: &main)
        continue
      }
      victims.record(arena.evict(slot, from: &main))
      return
    }
  }

  /// Small's pass (S3-FIFO): moves its oldest objects to main while they were accessed at
  /// least `threshold` times, and turns the first that was not into a ghost entry. Returns
  /// whether an object left the cache.
  @inlinable
  mutating func evictSmall<Sink: VictimSink>(threshold: UInt8, collecting victims: inout Sink) -> Bool {
    while !small.isEmpty {
      let slot = arena.popBack(from: &small)
      if arena[slot].extra.frequency >= threshold {
        pushMain(slot)
        continue
      }
      victims.record(victim(slot))
      remember(slot)
      return true
    }
    return false
  }

  /// Moves an unlinked entry to main's head with a zero counter.
  @inlinable
  mutating func pushMain(_ slot: Int32) {
    arena[slot].extra = QueueState(queue: QueueState.main)
    arena.pushFront(slot, to: &main)
  }

  /// Turns the unlinked entry at `slot` into a ghost entry, trimming the ghost queue.
  @inlinable
  mutating func remember(_ slot: Int32) {
    let size = arena[slot].size
    guard size <= ghostCapacity else {
      arena.remove(slot)
      return
    }
    while ghost.bytes + size > ghostCapacity { _ = arena.evict(ghost.tail, from: &ghost) }
    arena[slot].extra = QueueState(queue: QueueState.ghost)
    arena.pushFront(slot, to: &ghost)
  }

  /// The victim record of the entry at `slot`.
  @inlinable
  func victim(_ slot: Int32) -> Victim { Victim(key: arena[slot].key, size: arena[slot].size) }

  /// Removes `key` wherever it is; returns it if it was cached (not a ghost).
  mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    switch arena[slot].extra.queue {
    case QueueState.small: return arena.evict(slot, from: &small)
    case QueueState.main: return arena.evict(slot, from: &main)
    default:
      _ = arena.evict(slot, from: &ghost)
      return nil
    }
  }

  /// Whether `key` is cached (ghosts excluded).
  func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra.queue != QueueState.ghost
  }

  /// Checks the index, each queue's membership and the ghost bound.
  func check() throws(InvariantViolation) {
    try arena.checkIndex()
    let maximum = mainMaximum
    for (list, queue, name) in [
      (small, QueueState.small, "small"), (main, QueueState.main, "main"), (ghost, QueueState.ghost, "ghost"),
    ] {
      try arena.checkList(list, named: name) { node throws(InvariantViolation) in
        guard node.extra.queue == queue else {
          throw InvariantViolation("\(name) holds a node of queue \(node.extra.queue)")
        }
        guard queue != QueueState.main || node.extra.frequency <= maximum else {
          throw InvariantViolation("main counter \(node.extra.frequency) above \(maximum)")
        }
      }
    }
    guard small.count + main.count + ghost.count == arena.count else {
      throw InvariantViolation("queues hold \(small.count + main.count + ghost.count) of \(arena.count) entries")
    }
    guard ghost.bytes <= ghostCapacity else {
      throw InvariantViolation("ghost holds \(ghost.bytes) > \(ghostCapacity)")
    }
  }
}

extension GhostedQueues {
  /// Bytes of memory the arena (live and ghost entries) holds.
  public var memoryFootprint: Int { arena.memoryFootprint }
}
