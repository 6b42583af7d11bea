import CacheCore

/// Adaptive Replacement Cache: recency list T1 and frequency list T2, each with a ghost list
/// (B1, B2) of recently evicted keys whose hits move the target size p of T1.
///
/// Byte version as libCacheSim's `ARC.c`: p is a double in bytes moved by max(ratio of the
/// ghost lists' bytes, 1) per ghost hit; a hit in T1 or T2 moves the object to T2's head; a
/// ghost hit or a new object enters T2 or T1 respectively after evicting. Each eviction
/// drops at most one ghost entry first (B1's oldest when T1 + B1 would exceed the capacity,
/// else B2's oldest when all lists reach twice the capacity), then REPLACE demotes T1's or
/// T2's oldest into its ghost list by comparing T1 with p. Origin: Megiddo & Modha, "ARC: A
/// Self-Tuning, Low Overhead Replacement Cache", FAST 2003; libCacheSim `ARC.c`.
/// Memory: one 32-byte node + a 4-byte bucket per object and per ghost entry.
public struct ARC: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "arc",
    summary: "adaptive replacement cache: recency and frequency lists with ghost-driven balance",
    origin: "Megiddo & Modha, FAST 2003; libCacheSim ARC.c",
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "ARC_init", reference: LibCacheSimReference("arc"))
    ]))

  @usableFromInline static let t1: UInt8 = 0
  @usableFromInline static let t2: UInt8 = 1
  @usableFromInline static let b1: UInt8 = 2
  @usableFromInline static let b2: UInt8 = 3

  /// Per-object state: which of T1, T2, B1, B2 holds the entry.
  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 4)
  /// Target size of T1 in bytes.
  @usableFromInline var target: Double = 0
  /// Which ghost list the current request hit (0 = none), and its size.
  @usableFromInline var ghostHit: UInt8 = 0
  /// libCacheSim's "current object was in B2" flag, which REPLACE reads when T1 equals the
  /// target: set by a B2 hit, cleared by a B1 hit, a hit in T1 or T2, or the insertion after a
  /// ghost hit — so it outlives a ghost hit whose object was not inserted, as in `ARC.c`.
  @usableFromInline var lastGhostInB2 = false
  @usableFromInline var pendingSize: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes }
  @inlinable public var objectCount: Int { lists[0].count + lists[1].count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  mutating func move(_ slot: Int32, to list: UInt8) {
    arena.unlink(slot, from: &lists[Int(arena[slot].extra)])
    arena[slot].extra = list
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    ghostHit = 0
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    switch arena[slot].extra {
    case Self.t1, Self.t2:
      lastGhostInB2 = false
      move(slot, to: Self.t2)
      return true
    case Self.b1:
      lastGhostInB2 = false
      let delta = max(Double(lists[3].bytes) / Double(lists[2].bytes), 1)
      target = min(target + delta, Double(capacity))
      ghostHit = Self.b1
    default:
      let delta = max(Double(lists[2].bytes) / Double(lists[3].bytes), 1)
      target = max(target - delta, 0)
      ghostHit = Self.b2
      lastGhostInB2 = true
    }
    _ = arena.evict(slot, from: &lists[Int(arena[slot].extra)])
    return false
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let list = ghostHit == 0 ? Self.t1 : Self.t2
    if ghostHit != 0 { lastGhostInB2 = false }
    let slot = arena.insert(key: request.key, size: request.size, extra: list)
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    pendingSize = request.size
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    insert(request)
    pendingSize = 0
    ghostHit = 0
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    if ghostHit == 0 {
      let t1 = lists[0].bytes
      let b1 = lists[2].bytes
      if t1 + b1 + pendingSize > capacity {
        if !lists[2].isEmpty {
          _ = arena.evict(lists[2].tail, from: &lists[2])
        } else {
          victims.record(arena.evict(lists[0].tail, from: &lists[0]))
          return
        }
      } else if t1 + b1 + lists[1].bytes + lists[3].bytes >= 2 * capacity && !lists[3].isEmpty {
        _ = arena.evict(lists[3].tail, from: &lists[3])
      }
    }
    replace(collecting: &victims)
  }

  /// Demotes T1's oldest into B1 if T1 is above the target (or T2 is empty), otherwise T2's
  /// oldest into B2.
  @inlinable
  mutating func replace<Sink: VictimSink>(collecting victims: inout Sink) {
    let t1 = Double(lists[0].bytes)
    let fromT1 = (!lists[0].isEmpty && (t1 > target || (t1 == target && lastGhostInB2))) || lists[1].isEmpty
    let slot = fromT1 ? lists[0].tail : lists[1].tail
    victims.record(Victim(key: arena[slot].key, size: arena[slot].size))
    move(slot, to: fromT1 ? Self.b1 : Self.b2)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    let list = arena[slot].extra
    let victim = arena.evict(slot, from: &lists[Int(list)])
    return list <= Self.t2 ? victim : nil
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
    guard target >= 0, target <= Double(capacity) else {
      throw InvariantViolation("p = \(target) outside 0...\(capacity)")
    }
  }
}
