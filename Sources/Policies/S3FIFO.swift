import CacheCore

/// S3-FIFO: a small FIFO filters one-hit wonders, a main FIFO with reinsertion keeps the
/// rest, and a ghost FIFO remembers recently evicted keys.
///
/// New objects enter the small queue (10 % of the capacity in bytes); a ghost hit goes
/// straight to main. When room is needed: if main is over its share (or small is empty),
/// main's oldest object is reinserted while its counter is non-zero (counter =
/// min(counter, 3) − 1) and otherwise evicted; else small's oldest object moves to main if
/// it was accessed at least `threshold` times in small, or is evicted into the ghost queue
/// (bounded to `ghost` × capacity bytes). Objects larger than the small queue are not
/// admitted. Origin: Yang et al., "FIFO queues are all you need for cache eviction", SOSP
/// 2023; semantics as libCacheSim's S3-FIFO of 2023 (later `S3FIFOv0.c`).
/// Memory: one 32-byte node (queue and counter in the node) + a 4-byte bucket per object,
/// plus the same for each ghost entry.
public struct S3FIFO: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "s3fifo",
    aliases: ["s3-fifo"],
    summary: "small FIFO + main FIFO with reinsertion + ghost FIFO; filters one-hit wonders",
    origin: "Yang et al., SOSP 2023; libCacheSim S3-FIFO (2023, later S3FIFOv0.c)",
    parameters: [
      ParameterSpec(
        "small", default: "0.1", .real(0.000001...0.999999), help: "small FIFO share of the capacity",
        aliases: ["fifo-size-ratio", "small-size-ratio"]),
      ParameterSpec(
        "ghost", default: "0.9", .real(0...10), help: "ghost FIFO size as a fraction of the capacity",
        aliases: ["ghost-size-ratio"]),
      ParameterSpec(
        "threshold", default: "2", .integer(1...255), help: "accesses in small needed to move to main",
        aliases: ["move-to-main-threshold"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry")

  @usableFromInline var arena: SlotArena<QueueState>
  @usableFromInline var small = SlotList()
  @usableFromInline var main = SlotList()
  @usableFromInline var ghost = SlotList()
  @usableFromInline let smallCapacity: Int64
  @usableFromInline let mainCapacity: Int64
  @usableFromInline let ghostCapacity: Int64
  @usableFromInline let threshold: UInt8
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    smallCapacity = Int64(Double(capacity) * parameters.real("small"))
    mainCapacity = capacity - smallCapacity
    ghostCapacity = Int64(Double(capacity) * parameters.real("ghost"))
    threshold = UInt8(parameters.integer("threshold"))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { small.bytes + main.bytes }
  @inlinable public var objectCount: Int { small.count + main.count }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    lookup(request.key) == .cached
  }

  @usableFromInline
  enum Lookup { case cached, ghost, absent }

  /// A hit counts an access; a ghost entry is consumed.
  @inlinable
  mutating func lookup(_ key: UInt64) -> Lookup {
    let slot = arena.find(key)
    guard slot >= 0 else { return .absent }
    if arena[slot].extra.queue == QueueState.ghost {
      _ = arena.evict(slot, from: &ghost)
      return .ghost
    }
    arena[slot].extra.touch()
    return .cached
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: QueueState(queue: QueueState.small))
    arena.pushFront(slot, to: &small)
  }

  @inlinable
  public mutating func handle<Sink: VictimSink>(_ request: Request, victims: inout Sink) -> Outcome {
    let found = lookup(request.key)
    if found == .cached { return .hit }
    if request.size > smallCapacity || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(into: &victims) }
    if found == .ghost {
      let slot = arena.insert(key: request.key, size: request.size, extra: QueueState(queue: QueueState.main))
      arena.pushFront(slot, to: &main)
    } else {
      if request.size >= smallCapacity { return .rejected }
      insert(request)
    }
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    while true {
      if (main.bytes > mainCapacity || small.bytes == 0) && !main.isEmpty {
        evictMain(into: &victims)
        return
      }
      if evictSmall(into: &victims) { return }
    }
  }

  /// Moves small's oldest objects to main while they qualify; evicts the first that does
  /// not into the ghost queue. Returns whether an object left the cache.
  @inlinable
  mutating func evictSmall<Sink: VictimSink>(into victims: inout Sink) -> Bool {
    while !small.isEmpty {
      let slot = arena.popBack(from: &small)
      if arena[slot].extra.frequency >= threshold {
        arena[slot].extra = QueueState(queue: QueueState.main)
        arena.pushFront(slot, to: &main)
        continue
      }
      victims.record(Victim(key: arena[slot].key, size: arena[slot].size))
      remember(slot)
      return true
    }
    return false
  }

  /// Reinserts main's oldest objects while their counters are non-zero; evicts the first
  /// with a zero counter.
  @inlinable
  mutating func evictMain<Sink: VictimSink>(into victims: inout Sink) {
    while true {
      let slot = main.tail
      let frequency = arena[slot].extra.frequency
      if frequency >= 1 {
        arena[slot].extra.frequency = min(frequency, 3) - 1
        arena.moveToFront(slot, in: &main)
        continue
      }
      victims.record(arena.evict(slot, from: &main))
      return
    }
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

  public mutating func remove(_ key: UInt64) -> Victim? {
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

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra.queue != QueueState.ghost
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    for (list, queue, name) in [
      (small, QueueState.small, "small"), (main, QueueState.main, "main"), (ghost, QueueState.ghost, "ghost"),
    ] {
      try arena.checkList(list, named: name) { node throws(InvariantViolation) in
        guard node.extra.queue == queue else {
          throw InvariantViolation("\(name) holds a node of queue \(node.extra.queue)")
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
