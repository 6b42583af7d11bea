import CacheCore

/// libCacheSim's `SLRUv0.c`: n equal LRU segments where a hit moves an object up one segment
/// (a hit in the top segment changes nothing), making room by demoting each segment's oldest
/// one segment down (segment 0's oldest leaves the cache).
///
/// Unlike `slru` (libCacheSim's `SLRU.c`), a new object enters the lowest segment with room,
/// so during warm-up segments fill bottom-up with new objects; room for a new object is made
/// by evicting the oldest object of the lowest non-empty segment; a promoted object takes its
/// request's size. Each segment holds capacity / n (integer division); an object larger than
/// a segment is not admitted. Origin: Karedla, Love & Wherry, IEEE Computer 1994; libCacheSim
/// `SLRUv0.c`.
/// Memory: 36 B (32 B node with segment number + 4 B bucket) per object.
public struct SLRUv0: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "slru-v0",
    aliases: ["slruv0"],
    summary: "n equal LRU segments, new objects in the lowest with room; top-segment hits do nothing",
    origin: "Karedla, Love & Wherry, IEEE Computer 1994; libCacheSim SLRUv0.c",
    parameters: [
      ParameterSpec("segments", default: "4", .integer(1...16), help: "number of segments", aliases: ["n-seg"])
    ],
    memoryPerObject: "36 B (32 B node with segment number + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "segments=4", constructor: "SLRUv0_init", peerParameters: "n-seg=4")
    ]))

  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var segments: [SlotList]
  @usableFromInline let segmentCapacity: Int64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    let count = Int(parameters.integer("segments"))
    segments = [SlotList](repeating: SlotList(), count: count)
    segmentCapacity = capacity / Int64(count)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 {
    var total: Int64 = 0
    for index in segments.indices { total += segments[index].bytes }
    return total
  }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + segments.count * MemoryLayout<SlotList>.stride }

  /// A hit: promotes the object one segment up (victims of a hit go uncounted here; the
  /// engine and the replayer call ``handle(_:collecting:admission:)``).
  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    var ignored = IgnoringVictims()
    promote(slot, size: request.size, collecting: &ignored)
    return true
  }

  /// Moves a hit object one segment up with its request's size, cooling the segment above
  /// until it fits; an object in the top segment stays where it is, and so does one whose
  /// request has grown larger than a segment (libCacheSim's `SLRUv0_check` answers such a
  /// hit without moving it; cooling could never make room for it).
  @inlinable
  mutating func promote<Sink: VictimSink>(_ slot: Int32, size: Int64, collecting victims: inout Sink) {
    let from = Int(arena[slot].extra)
    guard from < segments.count - 1, size <= segmentCapacity else { return }
    arena.unlink(slot, from: &segments[from])
    while segments[from + 1].bytes + size > segmentCapacity { cool(from + 1, collecting: &victims) }
    arena[slot].size = size
    arena[slot].extra = UInt8(from + 1)
    arena.pushFront(slot, to: &segments[from + 1])
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let slot = arena.find(request.key)
    if slot >= 0 {
      promote(slot, size: request.size, collecting: &victims)
      return .hit
    }
    if !admission.admits(request) || request.size > capacity || request.size > segmentCapacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    insert(request, collecting: &victims)
    return .inserted
  }

  /// Puts a new object in the lowest segment with room, else makes room in segment 0.
  @inlinable
  mutating func insert<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) {
    var target = 0
    while target < segments.count, segments[target].bytes + request.size > segmentCapacity { target += 1 }
    if target == segments.count {
      target = 0
      while segments[0].bytes + request.size > segmentCapacity { evict(collecting: &victims) }
    }
    let slot = arena.insert(key: request.key, size: request.size, extra: UInt8(target))
    arena.pushFront(slot, to: &segments[target])
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    var ignored = IgnoringVictims()
    insert(request, collecting: &ignored)
  }

  /// Evicts the oldest object of the lowest non-empty segment.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var index = 0
    while index < segments.count - 1, segments[index].isEmpty { index += 1 }
    victims.record(arena.evict(segments[index].tail, from: &segments[index]))
  }

  /// Moves segment `index`'s oldest object one segment down, making room there first;
  /// segment 0's oldest leaves the cache.
  @inlinable
  mutating func cool<Sink: VictimSink>(_ index: Int, collecting victims: inout Sink) {
    let slot = segments[index].tail
    guard index > 0 else {
      victims.record(arena.evict(slot, from: &segments[0]))
      return
    }
    arena.unlink(slot, from: &segments[index])
    let required = segmentCapacity - arena[slot].size
    while segments[index - 1].bytes > required, !segments[index - 1].isEmpty { cool(index - 1, collecting: &victims) }
    arena[slot].extra = UInt8(index - 1)
    arena.pushFront(slot, to: &segments[index - 1])
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    return arena.evict(slot, from: &segments[Int(arena[slot].extra)])
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(segments, named: segments.indices.map { "segment \($0)" }) { Int($0.extra) }
    for segment in segments where segment.bytes > segmentCapacity {
      throw InvariantViolation("a segment holds \(segment.bytes) > \(segmentCapacity)")
    }
  }
}
