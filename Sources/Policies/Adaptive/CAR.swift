import CacheCore

/// CLOCK with Adaptive Replacement: ARC's four lists with CLOCK's reference bits. T1 and T2
/// are clocks (a hit only sets the object's bit); B1 and B2 remember keys evicted from them,
/// and a ghost hit moves the target size p of T1 (up for B1, down for B2, by the ratio of the
/// other ghost list's bytes, at least 1) and sends the object to T2.
///
/// As libCacheSim's current `CAR.c` (the libcachesim 0.3.5 package): replacement examines
/// T1's oldest while T1 holds at least max(1, p), else T2's oldest; a referenced object loses
/// its bit and moves to T2's newest end, an unreferenced one is demoted to its ghost list.
/// After each replacement B1's oldest key is dropped when T1 + B1 reach the capacity (unless
/// the request hit in both ghost lists); B2 is never trimmed, so, as in the package, keys
/// evicted from T2 are remembered until they return. The ghost-hit flags stay set until an
/// object is inserted. Origin: Bansal & Modha, "CAR: Clock with Adaptive Replacement",
/// FAST 2004; libCacheSim `CAR.c`.
/// Memory: 36 B (32 B node + 4 B bucket) per object and per remembered key.
public struct CAR: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "car",
    summary: "clock with adaptive replacement: ARC's ghost-driven balance over two CLOCK lists",
    origin: "Bansal & Modha, FAST 2004; libCacheSim CAR.c",
    parameters: [
      ParameterSpec("p", default: "0", .integer(0...Int64.max), help: "initial target size of T1 (units)")
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "p=0", constructor: "CAR_init", peerParameters: "p=0")
    ]))

  @usableFromInline static let t1: UInt8 = 0
  @usableFromInline static let t2: UInt8 = 1
  @usableFromInline static let b1: UInt8 = 2
  @usableFromInline static let b2: UInt8 = 3

  /// Which list holds the entry, and its reference bit.
  @frozen
  public struct Entry {
    @usableFromInline var list: UInt8
    @usableFromInline var referenced: Bool

    @inlinable
    init(list: UInt8, referenced: Bool) {
      self.list = list
      self.referenced = referenced
    }
  }

  @usableFromInline var arena: SlotArena<Entry>
  /// T1, T2, B1, B2; newest at each head.
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 4)
  @usableFromInline var target: Double
  /// Whether a request hit B1 or B2 since the last insertion.
  @usableFromInline var hitB1 = false
  @usableFromInline var hitB2 = false
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    target = Double(parameters.integer("p"))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes }
  @inlinable public var objectCount: Int { lists[0].count + lists[1].count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    switch arena[slot].extra.list {
    case Self.t1, Self.t2:
      arena[slot].extra.referenced = true
      return true
    case Self.b1:
      hitB1 = true
      target = min(target + Double(max(1, lists[3].bytes / lists[2].bytes)), Double(capacity))
    default:
      hitB2 = true
      target = max(target - Double(max(1, lists[2].bytes / lists[3].bytes)), 0)
    }
    _ = arena.evict(slot, from: &lists[Int(arena[slot].extra.list)])
    return false
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let list = hitB1 || hitB2 ? Self.t2 : Self.t1
    hitB1 = false
    hitB2 = false
    let slot = arena.insert(key: request.key, size: request.size, extra: Entry(list: list, referenced: false))
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  /// One replacement, then B1's trim.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    replace(collecting: &victims)
    if !hitB1 || !hitB2, lists[0].bytes + lists[2].bytes >= capacity, !lists[2].isEmpty {
      _ = arena.evict(lists[2].tail, from: &lists[2])
    }
  }

  /// Demotes one object to a ghost list, giving referenced ones a second round in T2.
  @inlinable
  mutating func replace<Sink: VictimSink>(collecting victims: inout Sink) {
    while true {
      let fromT1 = (Double(lists[0].bytes) >= max(1, target) && !lists[0].isEmpty) || lists[1].isEmpty
      let list = fromT1 ? 0 : 1
      let slot = lists[list].tail
      if arena[slot].extra.referenced {
        arena[slot].extra.referenced = false
        arena.unlink(slot, from: &lists[list])
        arena[slot].extra.list = Self.t2
        arena.pushFront(slot, to: &lists[1])
        continue
      }
      victims.record(Victim(key: arena[slot].key, size: arena[slot].size))
      arena.unlink(slot, from: &lists[list])
      arena[slot].extra.list = fromT1 ? Self.b1 : Self.b2
      arena.pushFront(slot, to: &lists[fromT1 ? 2 : 3])
      return
    }
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0, arena[slot].extra.list <= Self.t2 else { return nil }
    return arena.evict(slot, from: &lists[Int(arena[slot].extra.list)])
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra.list <= Self.t2
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(lists, named: ["T1", "T2", "B1", "B2"]) { Int($0.extra.list) }
    for ghosts in lists[2...] {
      try arena.checkList(ghosts, named: "ghosts") { node throws(InvariantViolation) in
        guard !node.extra.referenced else { throw InvariantViolation("ghost \(node.key) referenced") }
      }
    }
    guard target >= 0, target <= Double(capacity) else { throw InvariantViolation("target \(target)") }
  }
}
