import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libCacheSim's W-TinyLFU (`WTinyLFU.c`), a different design from Caffeine's that `wtinylfu`
/// follows: an LRU window of 1 % in front of a two-segment SLRU main cache (1 : 4), whose
/// admission duel reads a counting Bloom filter.
///
/// New objects enter the window (which may overfill while the cache warms up). Making room
/// moves the window's oldest object into main while main has room; otherwise it duels main's
/// victim (the oldest object of the lowest non-empty segment) and replaces it only with a
/// strictly higher estimate, else it is dropped; with an empty window main evicts. Window hits
/// only move the object; main hits promote it one segment (cooling segments down, which may
/// evict) and count in the filter, whose counters all halve every 32 × main's capacity main
/// hits. The filter has 10 counters per key (XXH64 with seeds 0x12345678 and 0x12344321,
/// double hashing) sized for main's capacity at 0.1 % error; an insertion increments all ten.
/// An object larger than the window or main's first segment is not admitted (checked after
/// the admission policy, as libCacheSim's `can_insert` does). Origin: Einziger,
/// Friedman & Manes, ACM TOS 2017; libCacheSim `WTinyLFU.c` with its default SLRU main.
/// Memory: 36 B per object (32 B node + 4 B bucket) plus the filter: 4 B per counter up to
/// 16 Mi counters, else a sparse table of the counters in use (16 B each).
public struct WTinyLFULibCacheSim: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "wtinylfu-lcs",
    aliases: ["wtinylfu-libcachesim"],
    summary: "libCacheSim's W-TinyLFU: LRU window + 2-segment SLRU main, counting-Bloom-filter duel",
    origin: "Einziger, Friedman & Manes, ACM TOS 2017; libCacheSim WTinyLFU.c",
    parameters: [
      ParameterSpec(
        "window", default: "0.01", .real(0...0.999999), help: "window share of the capacity", aliases: ["window-size"])
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket) + the filter's counters",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "window=0.01", constructor: "WTinyLFU_init", peerParameters: "main-cache=SLRU,window-size=0.01")
    ]))

  @usableFromInline static let window: UInt8 = 0

  @usableFromInline var arena: SlotArena<UInt8>
  /// The window, then main's segments (probation, protected); newest at each head.
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 3)
  @usableFromInline let windowCapacity: Int64
  @usableFromInline let mainCapacity: Int64
  @usableFromInline let segmentCapacity: (Int64, Int64)
  @usableFromInline var filter: CountingBloomFilter
  @usableFromInline var mainHits: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    windowCapacity = Int64(Double(capacity) * parameters.real("window"))
    mainCapacity = capacity - windowCapacity
    segmentCapacity = (Int64(1.0 / 5 * Double(mainCapacity)), Int64(4.0 / 5 * Double(mainCapacity)))
    filter = CountingBloomFilter(entries: Int32(truncatingIfNeeded: mainCapacity))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes + lists[2].bytes }
  @inlinable public var objectCount: Int { arena.count }
  @inlinable var mainBytes: Int64 { lists[1].bytes + lists[2].bytes }
  public var storageBytes: Int { arena.memoryFootprint + filter.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    var ignored = IgnoringVictims()
    return lookup(request, collecting: &ignored)
  }

  /// A window hit moves the object to the window's head; a main hit promotes it and counts.
  @inlinable
  mutating func lookup<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    guard arena[slot].extra != Self.window else {
      arena.moveToFront(slot, in: &lists[0])
      return true
    }
    promote(slot, collecting: &victims)
    filter.add(request.key)
    mainHits += 1
    if mainHits >= 32 * mainCapacity {
      mainHits = 0
      filter.halve()
    }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Self.window)
    arena.pushFront(slot, to: &lists[0])
    filter.add(request.key)
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if lookup(request, collecting: &victims) { return .hit }
    let size = request.size
    if !admission.admits(request) { return .rejected }
    if size > capacity || size > windowCapacity || size > mainCapacity || size > segmentCapacity.0 {
      return .rejected
    }
    while occupiedBytes + size > capacity { evict(collecting: &victims) }
    insert(request)
    return .inserted
  }

  /// Drains the window's oldest objects into main while main has room; then the window's
  /// oldest duels main's victim once; with an empty window main evicts.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    while !lists[0].isEmpty {
      let candidate = lists[0].tail
      let key = arena[candidate].key
      if mainBytes + arena[candidate].size <= mainCapacity {
        arena.unlink(candidate, from: &lists[0])
        insertInMain(candidate, collecting: &victims)
        filter.add(key)
        continue
      }
      let victim = mainVictim()
      if filter.estimate(key) > filter.estimate(arena[victim].key) {
        victims.record(arena.evict(victim, from: &lists[Int(arena[victim].extra)]))
        arena.unlink(candidate, from: &lists[0])
        insertInMain(candidate, collecting: &victims)
      } else {
        victims.record(arena.evict(candidate, from: &lists[0]))
      }
      filter.add(key)
      return
    }
    evictFromMain(collecting: &victims)
  }

  /// Main's victim: the oldest object of its lowest non-empty segment.
  @inlinable
  func mainVictim() -> Int32 { lists[1].isEmpty ? lists[2].tail : lists[1].tail }

  @inlinable
  mutating func evictFromMain<Sink: VictimSink>(collecting victims: inout Sink) {
    let victim = mainVictim()
    victims.record(arena.evict(victim, from: &lists[Int(arena[victim].extra)]))
  }

  /// Puts an unlinked object in main's lowest segment with room, else (evicting until main
  /// has room) in the first segment.
  @inlinable
  mutating func insertInMain<Sink: VictimSink>(_ slot: Int32, collecting victims: inout Sink) {
    let size = arena[slot].size
    var segment: UInt8 = 1
    if lists[1].bytes + size > segmentCapacity.0 {
      if lists[2].bytes + size <= segmentCapacity.1 {
        segment = 2
      } else {
        while mainBytes + size > mainCapacity, !(lists[1].isEmpty && lists[2].isEmpty) {
          evictFromMain(collecting: &victims)
        }
      }
    }
    arena[slot].extra = segment
    arena.pushFront(slot, to: &lists[Int(segment)])
  }

  /// A main hit: an object in the top segment moves to its head; one in the first segment
  /// moves up, the top segment's oldest cooling down while it is over its share, and the
  /// first segment's oldest leaving while that one is.
  @inlinable
  mutating func promote<Sink: VictimSink>(_ slot: Int32, collecting victims: inout Sink) {
    guard arena[slot].extra == 1 else {
      arena.moveToFront(slot, in: &lists[2])
      return
    }
    arena.unlink(slot, from: &lists[1])
    arena[slot].extra = 2
    arena.pushFront(slot, to: &lists[2])
    while lists[2].bytes > segmentCapacity.1 {
      let cooled = lists[2].tail
      arena.unlink(cooled, from: &lists[2])
      arena[cooled].extra = 1
      arena.pushFront(cooled, to: &lists[1])
      while lists[1].bytes > segmentCapacity.0 {
        victims.record(arena.evict(lists[1].tail, from: &lists[1]))
      }
    }
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
    try arena.checkPartition(lists, named: ["window", "probation", "protected"]) { Int($0.extra) }
  }
}
