import CacheCore

/// libCacheSim's `ARCv0.c`: ARC with each of T1, T2, B1 and B2 an LRU list bounded by the
/// whole capacity, so the ghost lists bound themselves.
///
/// A hit in T1 moves the object to T2 (with its request's size); a ghost hit moves the target
/// p of T1 by max(ratio of the other ghost list's bytes to this one's, 1) (a double) and
/// sends the object to T2. Evictions made for a ghost-hit request always run REPLACE (T1's
/// oldest to B1 when T1 exceeds p, or equals it after a B2 hit, or T2 is empty; else T2's
/// oldest to B2); other misses follow the paper's case IV: when T1 + B1 + the new object
/// exceed the capacity, B1's oldest key is dropped and REPLACE runs (with B1 empty, T1's
/// oldest is evicted without a ghost), otherwise B2's oldest keys are dropped while all four
/// lists reach twice the capacity, then REPLACE. Origin: Megiddo & Modha, FAST 2003;
/// libCacheSim `ARCv0.c` (`arc` is libCacheSim's `ARC.c`).
/// Memory: 36 B (32 B node + 4 B bucket) per object and per ghost entry.
public struct ARCv0: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "arc-v0",
    aliases: ["arcv0"],
    summary: "ARC with four capacity-bounded LRU lists; ghost-hit requests evict by REPLACE only",
    origin: "Megiddo & Modha, FAST 2003; libCacheSim ARCv0.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([LibCacheSimCounterpart(constructor: "ARCv0_init")]))

  @usableFromInline static let t1: UInt8 = 0
  @usableFromInline static let t2: UInt8 = 1
  @usableFromInline static let b1: UInt8 = 2
  @usableFromInline static let b2: UInt8 = 3

  @usableFromInline var arena: SlotArena<UInt8>
  /// T1, T2, B1, B2; newest at each head.
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 4)
  @usableFromInline var target = 0.0
  /// The last ghost hit was in B1 / B2 (reset by the next lookup that finds the key anywhere).
  @usableFromInline var inB1 = false
  @usableFromInline var inB2 = false
  /// Requests served, and the one whose lookup hit a ghost list (-1: none pending).
  @usableFromInline var requests: Int64 = 0
  @usableFromInline var ghostRequest: Int64 = -1
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes }
  @inlinable public var objectCount: Int { lists[0].count + lists[1].count }
  public var storageBytes: Int { arena.memoryFootprint }
  @inlinable var ghostHitPending: Bool { ghostRequest == requests && (inB1 || inB2) }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    var ignored = IgnoringVictims()
    return lookup(request, collecting: &ignored)
  }

  /// Counts the request and looks its key up: a T1 hit moves to T2 (evicting from T2 only if
  /// the request's size grew past the capacity), a ghost hit moves the target and consumes
  /// the ghost entry.
  @inlinable
  mutating func lookup<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) -> Bool {
    requests += 1
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    inB1 = false
    inB2 = false
    let ghost1 = Double(lists[2].bytes)
    let ghost2 = Double(lists[3].bytes)
    switch arena[slot].extra {
    case Self.t1:
      arena.unlink(slot, from: &lists[0])
      arena[slot].size = request.size
      arena[slot].extra = Self.t2
      while lists[1].bytes + request.size > capacity, !lists[1].isEmpty {
        victims.record(arena.evict(lists[1].tail, from: &lists[1]))
      }
      arena.pushFront(slot, to: &lists[1])
      return true
    case Self.t2:
      arena.moveToFront(slot, in: &lists[1])
      return true
    case Self.b1:
      ghostRequest = requests
      inB1 = true
      target = min(target + max(ghost2 / ghost1, 1), Double(capacity))
    default:
      ghostRequest = requests
      inB2 = true
      target = max(target - max(ghost1 / ghost2, 1), 0)
    }
    _ = arena.evict(slot, from: &lists[Int(arena[slot].extra)])
    return false
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if lookup(request, collecting: &victims) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity {
      if ghostHitPending {
        replace(collecting: &victims)
      } else {
        evictMiss(request.size, collecting: &victims)
      }
    }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    var list = Self.t1
    if ghostHitPending {
      list = Self.t2
      inB1 = false
      inB2 = false
      ghostRequest = -1
    }
    let slot = arena.insert(key: request.key, size: request.size, extra: list)
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let before = objectCount
    while objectCount == before { evictMiss(0, collecting: &victims) }
  }

  /// REPLACE: T1's oldest to B1, or T2's oldest to B2.
  @inlinable
  mutating func replace<Sink: VictimSink>(collecting victims: inout Sink) {
    let t1 = lists[0].bytes
    let fromT1 = (t1 > 0 && (Double(t1) > target || (Double(t1) == target && inB2))) || lists[1].isEmpty
    let list = fromT1 && !lists[0].isEmpty ? 0 : 1
    let slot = lists[list].tail
    victims.record(Victim(key: arena[slot].key, size: arena[slot].size))
    arena.unlink(slot, from: &lists[list])
    remember(slot, in: list == 0 ? 2 : 3)
  }

  /// Case IV of the paper for a miss without a ghost hit.
  @inlinable
  mutating func evictMiss<Sink: VictimSink>(_ size: Int64, collecting victims: inout Sink) {
    let t1 = lists[0].bytes
    let ghost1 = lists[2].bytes
    if t1 + ghost1 + size > capacity {
      if ghost1 > 0 {
        _ = arena.evict(lists[2].tail, from: &lists[2])
        replace(collecting: &victims)
      } else {
        victims.record(arena.evict(lists[0].tail, from: &lists[0]))
      }
    } else {
      let t2 = lists[1].bytes
      while t1 + ghost1 + t2 + lists[3].bytes >= 2 * capacity, !lists[3].isEmpty {
        _ = arena.evict(lists[3].tail, from: &lists[3])
      }
      replace(collecting: &victims)
    }
  }

  /// Makes the unlinked entry at `slot` a ghost in `list` (B1 or B2), trimming that list to
  /// the capacity first.
  @inlinable
  mutating func remember(_ slot: Int32, in list: UInt8) {
    let size = arena[slot].size
    guard size <= capacity else {
      arena.remove(slot)
      return
    }
    while lists[Int(list)].bytes + size > capacity { _ = arena.evict(lists[Int(list)].tail, from: &lists[Int(list)]) }
    arena[slot].extra = list
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0, arena[slot].extra <= Self.t2 else { return nil }
    return arena.evict(slot, from: &lists[Int(arena[slot].extra)])
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra <= Self.t2
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(lists, named: ["T1", "T2", "B1", "B2"]) { Int($0.extra) }
    for list in lists where list.bytes > capacity {
      throw InvariantViolation("a list holds \(list.bytes) > \(capacity)")
    }
  }
}
