import CacheCore

/// Midpoint-insertion LRU, as InnoDB's buffer pool manages pages: the list is split into a
/// young part (5/8) and an old part (3/8); a new object enters at the head of the old part, a
/// hit in the old part moves it to the head of the young part, the young part's overflow falls
/// back into the old part, and the old part's tail is evicted. A scan therefore only churns
/// the old part. (MySQL Reference Manual, "Making the Buffer Pool Scan Resistant",
/// innodb_old_blocks_pct.)
///
/// Memory: one 32-byte arena node (the `young` flag is its extra state) + a 4-byte bucket per object.
public struct MidpointLRU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "midpoint-lru",
    summary: "LRU with insertion at the midpoint: new objects start in the old 3/8, hits there promote to young",
    origin: "InnoDB buffer pool (MySQL innodb_old_blocks_pct); an example of a user-defined policy",
    parameters: [
      ParameterSpec(
        "old", default: "0.375", .real(0.01...0.99), help: "fraction of the capacity for the old part (innodb: 37 %)")
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    libCacheSim: .none(reason: "an example of a policy defined outside CacheLab: not compared with libCacheSim"))

  var arena: SlotArena<Bool>
  var young = SlotList()
  var old = SlotList()
  let youngLimit: Int64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    youngLimit = Int64(Double(capacity) * (1 - parameters.real("old")))
    arena = SlotArena(initialCapacity: Int(min(max(capacity, 16), 1 << 20)))
  }

  public var occupiedBytes: Int64 { young.bytes + old.bytes }
  public var objectCount: Int { young.count + old.count }
  public var storageBytes: Int { arena.memoryFootprint }

  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    if arena[slot].extra {
      arena.moveToFront(slot, in: &young)
    } else {
      arena.unlink(slot, from: &old)
      arena[slot].extra = true
      arena.pushFront(slot, to: &young)
      // The young part's least recent objects age into the old part.
      while young.bytes > youngLimit, young.count > 1 {
        let demoted = arena.popBack(from: &young)
        arena[demoted].extra = false
        arena.pushFront(demoted, to: &old)
      }
    }
    return true
  }

  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: false)
    arena.pushFront(slot, to: &old)
  }

  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    if old.count > 0 {
      victims.record(arena.evict(old.tail, from: &old))
    } else {
      victims.record(arena.evict(young.tail, from: &young))
    }
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    return arena[slot].extra ? arena.evict(slot, from: &young) : arena.evict(slot, from: &old)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkList(young, named: "young") { node throws(InvariantViolation) in
      guard node.extra else { throw InvariantViolation("an old object is in the young list") }
    }
    try arena.checkList(old, named: "old") { node throws(InvariantViolation) in
      guard !node.extra else { throw InvariantViolation("a young object is in the old list") }
    }
    guard young.count + old.count == arena.count else {
      throw InvariantViolation("\(arena.count) objects in the arena, \(young.count + old.count) in the lists")
    }
  }
}
