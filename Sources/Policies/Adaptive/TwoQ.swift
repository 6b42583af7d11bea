import CacheCore

/// 2Q: a FIFO A1in for first-time objects, a ghost FIFO A1out of keys recently evicted from
/// it, and an LRU Am for objects re-requested while remembered in A1out.
///
/// As libCacheSim's `TwoQ.c`: a hit in A1in changes nothing, a hit in Am moves the object to
/// Am's recent end; a ghost hit puts the object into Am (which evicts its own oldest to stay
/// within capacity − A1in's share). To make room, A1in's oldest object leaves into A1out
/// while A1in holds more than its share, otherwise Am's oldest leaves (no ghost). A1out is
/// bounded to `kout` × capacity (in object sizes). Objects larger than A1in's share are not
/// admitted. Origin: Johnson & Shasha, "2Q: A Low Overhead High Performance Buffer
/// Management Replacement Algorithm", VLDB 1994; libCacheSim `TwoQ.c`.
/// Memory: one 32-byte node + a 4-byte bucket per object and per ghost entry.
public struct TwoQ: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "2q",
    aliases: ["twoq"],
    summary: "FIFO for new objects, ghost of its evictions, LRU for objects seen again",
    origin: "Johnson & Shasha, VLDB 1994; libCacheSim TwoQ.c",
    parameters: [
      ParameterSpec(
        "kin", default: "0.25", .real(0.000001...0.999999), help: "A1in share of the capacity",
        aliases: ["ain-size-ratio"]),
      ParameterSpec(
        "kout", default: "0.5", .real(0...10), help: "A1out ghost size as a fraction of the capacity",
        aliases: ["aout-size-ratio"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "kin=0.25,kout=0.5", constructor: "TwoQ_init",
        peerParameters: "Ain-size-ratio=0.25,Aout-size-ratio=0.5")
    ]))

  @usableFromInline static let ain: UInt8 = 0
  @usableFromInline static let am: UInt8 = 1
  @usableFromInline static let aout: UInt8 = 2

  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var ain = SlotList()
  @usableFromInline var am = SlotList()
  @usableFromInline var aout = SlotList()
  @usableFromInline let ainCapacity: Int64
  @usableFromInline let amCapacity: Int64
  @usableFromInline let aoutCapacity: Int64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    ainCapacity = Int64(Double(capacity) * parameters.real("kin"))
    aoutCapacity = Int64(Double(capacity) * parameters.real("kout"))
    amCapacity = capacity - ainCapacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { ain.bytes + am.bytes }
  @inlinable public var objectCount: Int { ain.count + am.count }
  public var storageBytes: Int { arena.memoryFootprint }

  @usableFromInline
  enum Lookup { case cached, ghost, absent }

  @inlinable
  mutating func lookup(_ key: UInt64) -> Lookup {
    let slot = arena.find(key)
    guard slot >= 0 else { return .absent }
    switch arena[slot].extra {
    case Self.ain: return .cached
    case Self.am:
      arena.moveToFront(slot, in: &am)
      return .cached
    default:
      _ = arena.evict(slot, from: &aout)
      return .ghost
    }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { lookup(request.key) == .cached }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Self.ain)
    arena.pushFront(slot, to: &ain)
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let found = lookup(request.key)
    if found == .cached { return .hit }
    if request.size > ainCapacity || !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    guard found == .ghost else {
      insert(request)
      return .inserted
    }
    while am.bytes + request.size > amCapacity, !am.isEmpty {
      victims.record(arena.evict(am.tail, from: &am))
    }
    let slot = arena.insert(key: request.key, size: request.size, extra: Self.am)
    arena.pushFront(slot, to: &am)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    guard ain.bytes > ainCapacity || am.isEmpty, !ain.isEmpty else {
      victims.record(arena.evict(am.tail, from: &am))
      return
    }
    let slot = arena.popBack(from: &ain)
    let size = arena[slot].size
    victims.record(Victim(key: arena[slot].key, size: size))
    guard size <= aoutCapacity else {
      arena.remove(slot)
      return
    }
    while aout.bytes + size > aoutCapacity { _ = arena.evict(aout.tail, from: &aout) }
    arena[slot].extra = Self.aout
    arena.pushFront(slot, to: &aout)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    switch arena[slot].extra {
    case Self.ain: return arena.evict(slot, from: &ain)
    case Self.am: return arena.evict(slot, from: &am)
    default:
      _ = arena.evict(slot, from: &aout)
      return nil
    }
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra != Self.aout
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    for (list, queue, name) in [(ain, Self.ain, "A1in"), (am, Self.am, "Am"), (aout, Self.aout, "A1out")] {
      try arena.checkList(list, named: name) { node throws(InvariantViolation) in
        guard node.extra == queue else { throw InvariantViolation("\(name) holds a node of queue \(node.extra)") }
      }
    }
    guard ain.count + am.count + aout.count == arena.count else {
      throw InvariantViolation("queues hold \(ain.count + am.count + aout.count) of \(arena.count) entries")
    }
    guard aout.bytes <= aoutCapacity else { throw InvariantViolation("A1out holds \(aout.bytes) > \(aoutCapacity)") }
  }
}
