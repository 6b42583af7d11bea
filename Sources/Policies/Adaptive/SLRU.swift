import CacheCore

/// Segmented LRU with n equal segments: new objects enter the lowest segment with room, a hit
/// promotes one segment up, and an overflowing segment demotes its least recently used
/// object one segment down (overflow out of segment 0 evicts).
///
/// Each segment holds capacity / n bytes (integer division). An object larger than one
/// segment is not admitted. Eviction takes the tail of the lowest non-empty segment; a hit
/// can cause evictions through the demotion cascade. Origin: Karedla et al., IEEE Computer
/// 1994; semantics as libCacheSim's `SLRU.c` (`n-seg`).
/// Memory: one 32-byte arena node (segment number in the node) + a 4-byte bucket per object.
public struct SLRU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "slru",
    summary: "segmented LRU: hits promote one of n equal LRU segments up, overflow demotes down",
    origin: "Karedla, Love & Wherry, IEEE Computer 1994; libCacheSim SLRU.c",
    parameters: [
      ParameterSpec("segments", default: "4", .integer(1...16), help: "number of equal segments", aliases: ["n-seg"])
    ],
    memoryPerObject: "36 B (32 B node with segment number + 4 B bucket)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "segments=4", constructor: "SLRU_init", peerParameters: "n-seg=4"),
      LibCacheSimCounterpart(
        parameters: "segments=5", constructor: "SLRU_init", peerParameters: "n-seg=5",
        reference: LibCacheSimReference("slru", parameters: "n-seg=5")),
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
    for level in 0..<segments.count { total += segments[level].bytes }
    return total
  }

  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    var ignore = IgnoringVictims()
    return hit(request.key, collecting: &ignore)
  }

  @inlinable
  mutating func hit<Sink: VictimSink>(_ key: UInt64, collecting victims: inout Sink) -> Bool {
    let slot = arena.find(key)
    guard slot >= 0 else { return false }
    let level = Int(arena[slot].extra)
    if level == segments.count - 1 {
      arena.moveToFront(slot, in: &segments[level])
      return true
    }
    arena.unlink(slot, from: &segments[level])
    arena[slot].extra = UInt8(level + 1)
    arena.pushFront(slot, to: &segments[level + 1])
    while segments[level + 1].bytes > segmentCapacity { cool(level + 1, collecting: &victims) }
    return true
  }

  /// Makes room in segment `level` by demoting (or, for segment 0, evicting) its oldest object.
  @inlinable
  mutating func cool<Sink: VictimSink>(_ level: Int, collecting victims: inout Sink) {
    if level == 0 {
      evict(collecting: &victims)
      return
    }
    let slot = arena.popBack(from: &segments[level])
    arena[slot].extra = UInt8(level - 1)
    arena.pushFront(slot, to: &segments[level - 1])
    while segments[level - 1].bytes > segmentCapacity { cool(level - 1, collecting: &victims) }
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: 0)
    var level = 0
    while level < segments.count, segments[level].bytes + request.size > segmentCapacity { level += 1 }
    if level == segments.count { level = 0 }
    arena[slot].extra = UInt8(level)
    arena.pushFront(slot, to: &segments[level])
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var level = 0
    while segments[level].isEmpty && level < segments.count - 1 { level += 1 }
    victims.record(arena.evict(segments[level].tail, from: &segments[level]))
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if hit(request.key, collecting: &victims) { return .hit }
    if !admission.admits(request) || request.size > capacity || request.size > segmentCapacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    insert(request)
    return .inserted
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
    var total = 0
    for (level, segment) in segments.enumerated() {
      try arena.checkList(segment, named: "segment \(level)") { node throws(InvariantViolation) in
        guard Int(node.extra) == level else { throw InvariantViolation("node in segment \(level) says \(node.extra)") }
      }
      total += segment.count
    }
    guard total == arena.count else { throw InvariantViolation("segments hold \(total) of \(arena.count) entries") }
  }
}
