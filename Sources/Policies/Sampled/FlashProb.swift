import CacheCore

/// A DRAM + flash cache that limits flash writes: every miss enters an LRU in DRAM; an object
/// leaving DRAM is written to a FIFO on flash only with probability about `disk-admit-prob`,
/// otherwise dropped. Hits are served from either.
///
/// As libCacheSim's `flashProb.c` (with its default LRU DRAM and FIFO flash): flash holds
/// `capacity − ⌊capacity × ram-size-ratio⌋` bytes and keeps itself within them by dropping
/// its oldest; DRAM has no limit of its own — evictions for a miss take DRAM's least recently
/// used while DRAM holds any bytes, else flash's oldest. Each DRAM eviction draws once: the
/// object goes to flash when libCacheSim's next value (lehmer64 from 0xdeadbeef + `--seed`)
/// modulo ⌊1 / disk-admit-prob⌋ is 0 (so 0.3 admits one in 3, anything above 0.5 admits all).
/// Seed 0 reproduces the libcachesim package. Origin: flash-write-limiting admission as in
/// Eisenman et al., "Flashield", NSDI 2019 (its probabilistic baseline); libCacheSim
/// `flashProb.c`.
/// Memory: 36 B (32 B node + 4 B bucket) per object in either tier.
public struct FlashProb: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "flash-prob",
    aliases: ["flashprob"],
    summary: "DRAM LRU whose evictions enter a flash FIFO with probability p (seeded)",
    origin: "Flashield (Eisenman et al., NSDI 2019) baseline; libCacheSim flashProb.c",
    parameters: [
      ParameterSpec(
        "ram-size-ratio", default: "0.05", .real(0...1), help: "DRAM's share of the capacity (flash gets the rest)"),
      ParameterSpec(
        "disk-admit-prob", default: "0.2", .real(0.000001...1),
        help: "chance a DRAM eviction is written to flash (used as 1 in ⌊1/p⌋)"),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket)", isRandomized: true,
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "ram-size-ratio=0.05,disk-admit-prob=0.2", constructor: "flashProb_init",
        peerParameters: "ram-size-ratio=0.05,disk-admit-prob=0.2", resetsGenerator: true)
    ]))

  @usableFromInline static let ram: UInt8 = 0
  @usableFromInline static let flash: UInt8 = 1

  @usableFromInline var arena: SlotArena<UInt8>
  /// DRAM (most recently used at the head) and flash (newest at the head).
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 2)
  @usableFromInline let flashCapacity: Int64
  @usableFromInline let admitOneIn: UInt64
  @usableFromInline var random: Lehmer64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    let dram = Double(capacity) * parameters.real("ram-size-ratio")
    flashCapacity = dram >= 0x1p63 ? 0 : capacity - Int64(dram)
    admitOneIn = max(1, UInt64(1.0 / parameters.real("disk-admit-prob")))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes }
  @inlinable public var objectCount: Int { lists[0].count + lists[1].count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    if arena[slot].extra == Self.ram { arena.moveToFront(slot, in: &lists[0]) }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Self.ram)
    arena.pushFront(slot, to: &lists[0])
  }

  /// libCacheSim's evictions until an object leaves the cache: each takes DRAM's least
  /// recently used (to flash with one draw's luck), or flash's oldest when DRAM holds no bytes.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let before = objectCount
    while objectCount == before, before > 0 {
      if lists[0].bytes > 0 {
        demote(collecting: &victims)
      } else if !lists[1].isEmpty {
        victims.record(arena.evict(lists[1].tail, from: &lists[1]))
      } else {
        victims.record(arena.evict(lists[0].tail, from: &lists[0]))
      }
    }
  }

  /// Takes DRAM's least recently used out; it is written to flash (evicting flash's oldest to
  /// make room) when the draw admits it and it fits, else it leaves the cache.
  @inlinable
  mutating func demote<Sink: VictimSink>(collecting victims: inout Sink) {
    let slot = lists[0].tail
    let size = arena[slot].size
    guard random.next() % admitOneIn == 0, size <= flashCapacity else {
      victims.record(arena.evict(slot, from: &lists[0]))
      return
    }
    arena.unlink(slot, from: &lists[0])
    while lists[1].bytes + size > flashCapacity { victims.record(arena.evict(lists[1].tail, from: &lists[1])) }
    arena[slot].extra = Self.flash
    arena.pushFront(slot, to: &lists[1])
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    return arena.evict(slot, from: &lists[Int(arena[slot].extra)])
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(lists, named: ["DRAM", "flash"]) { Int($0.extra) }
    guard lists[1].bytes <= max(flashCapacity, 0) else {
      throw InvariantViolation("flash holds \(lists[1].bytes) > \(flashCapacity)")
    }
  }
}
