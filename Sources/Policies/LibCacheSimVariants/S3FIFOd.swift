import CacheCore

/// S3-FIFO with dynamic queue sizes (libCacheSim's `S3FIFOd.c`, "quick demotion and lazy
/// promotion v2"): the small FIFO's share moves toward whichever queue's recent evictions are
/// requested again more often.
///
/// Small FIFO (10 % at first) in front of a 2-bit CLOCK main cache, with a ghost FIFO as large
/// as main. An object hit at least `threshold` times in small moves to main when small evicts
/// it, otherwise it becomes a ghost; a ghost hit inserts into main through main's own CLOCK
/// (evicting within main's share). Two FIFOs of capacity / 10 bytes remember the keys evicted
/// from small and from main; their hits are counted, and before each request, once more than
/// 100 have been counted (and main has evicted), small, ghost and main shift by
/// max(1, min(small, main) / 1000) toward the side whose count is more than twice the other's
/// (never below capacity / 100), and both counts decay by 0.8. Objects larger than small's
/// current share are not admitted. Origin: Yang et al., "FIFO can be Better than LRU: the Power
/// of Lazy Promotion and Quick Demotion", HotOS 2023; libCacheSim `S3FIFOd.c` (main cache
/// Clock2, its default).
/// Memory: 36 B per object and per ghost key, plus 36 B per key in the two eviction trackers.
public struct S3FIFOd: GhostedQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "s3fifod",
    aliases: ["s3fifo-d"],
    summary: "S3-FIFO whose small/main split adapts to where evicted objects are requested again",
    origin: "Yang et al., HotOS 2023; libCacheSim S3FIFOd.c",
    parameters: [
      ParameterSpec(
        "small", default: "0.1", .real(0.000001...0.999999), help: "initial small FIFO share of the capacity",
        aliases: ["fifo-size-ratio", "small-size-ratio"]),
      ParameterSpec(
        "threshold", default: "1", .integer(1...255), help: "hits in small needed to move to main",
        aliases: ["move-to-main-threshold"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost or tracked key",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "small=0.1,threshold=1", constructor: "S3FIFOd_init",
        peerParameters: "fifo-size-ratio=0.1,main-cache=Clock2,move-to-main-threshold=1")
    ]))

  @usableFromInline var queues: GhostedQueues
  @usableFromInline var smallEvicted: KeyFIFO
  @usableFromInline var mainEvicted: KeyFIFO
  @usableFromInline var split: SmallMainSplit
  /// Requests for keys recently evicted from small and from main (decayed).
  @usableFromInline var smallEvictedHits = 0
  @usableFromInline var mainEvictedHits = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    split = SmallMainSplit(capacity: capacity, parameters: parameters)
    queues = GhostedQueues(capacity: capacity, ghostCapacity: split.main, mainMaximum: 3)
    let slots = initialSlotCapacity(for: capacity / 10)
    smallEvicted = KeyFIFO(capacity: capacity / 10, initialSlots: slots)
    mainEvicted = KeyFIFO(capacity: capacity / 10, initialSlots: slots)
  }

  @inlinable @inline(__always)
  public func withQueues<R, E>(_ body: (borrowing GhostedQueues) throws(E) -> R) throws(E) -> R { try body(queues) }
  @inlinable @inline(__always)
  public mutating func updateQueues<R>(_ body: (inout GhostedQueues) -> R) -> R { body(&queues) }

  public var storageBytes: Int {
    queues.memoryFootprint + smallEvicted.memoryFootprint + mainEvicted.memoryFootprint
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    adaptSizes()
    return lookup(request.key) == .cached
  }

  /// libCacheSim's `S3FIFOd_find`: a hit in small counts it; a ghost entry is consumed; a main
  /// hit raises its counter (at most 3); requests for tracked keys are counted.
  @inlinable
  mutating func lookup(_ key: UInt64) -> GhostedQueues.Lookup {
    let slot = queues.arena.find(key)
    var found = GhostedQueues.Lookup.absent
    if slot >= 0 {
      switch queues.arena[slot].extra.queue {
      case QueueState.small:
        queues.arena[slot].extra.touch()
        return .cached
      case QueueState.ghost:
        _ = queues.arena.evict(slot, from: &queues.ghost)
        found = .ghost
      default:
        found = .cached
        if queues.arena[slot].extra.frequency < 3 { queues.arena[slot].extra.frequency += 1 }
      }
    }
    if smallEvicted.take(key) { smallEvictedHits += 1 }
    if mainEvicted.take(key) { mainEvictedHits += 1 }
    return found
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    adaptSizes()
    let found = lookup(request.key)
    if found == .cached { return .hit }
    if request.size > split.small || !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evictStep(collecting: &victims) }
    guard found == .ghost else {
      insert(request)
      return .inserted
    }
    // Main's own CLOCK makes room within main's share; these evictions are not tracked.
    guard request.size <= split.main else { return .rejected }
    while queues.main.bytes + request.size > split.main { queues.evictMain(collecting: &victims) { $0 - 1 } }
    queues.insert(request, into: QueueState.main)
    return .inserted
  }

  /// Shifts capacity between small (with the ghost) and main by the tracked hits.
  @inlinable
  mutating func adaptSizes() {
    let step = max(1, min(split.small, split.main) / 1000)
    let enough = smallEvictedHits + mainEvictedHits > 100
    guard mainEvicted.bytes > 0 else {
      smallEvictedHits = 0
      mainEvictedHits = 0
      return
    }
    guard enough else { return }
    if smallEvictedHits > mainEvictedHits * 2 {
      if split.main > capacity / 100 { shift(step) }
    } else if mainEvictedHits > smallEvictedHits * 2 {
      if split.small > capacity / 100 { shift(-step) }
    }
    smallEvictedHits = Int(Double(smallEvictedHits) * 0.8)
    mainEvictedHits = Int(Double(mainEvictedHits) * 0.8)
  }

  /// Grows small and the ghost by `amount` and shrinks main by it (negative: the reverse).
  @inlinable
  mutating func shift(_ amount: Int64) {
    split.small += amount
    queues.ghostCapacity += amount
    split.main -= amount
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    evictByStepping(collecting: &victims) { $0.evictStep(collecting: &$1) }
  }

  /// One eviction step: main's CLOCK when small is empty, else small's oldest moves to main
  /// (main then evicts down to its share) or becomes a ghost.
  @inlinable
  mutating func evictStep<Sink: VictimSink>(collecting victims: inout Sink) {
    guard !queues.small.isEmpty else {
      evictMainTracked(collecting: &victims)
      return
    }
    let slot = queues.arena.popBack(from: &queues.small)
    if queues.arena[slot].extra.frequency >= split.threshold {
      queues.pushMain(slot)
      while queues.main.bytes > split.main { evictMainTracked(collecting: &victims) }
      return
    }
    let victim = queues.victim(slot)
    victims.record(victim)
    smallEvicted.remember(victim.key, size: victim.size)
    queues.remember(slot)
  }

  /// Main's CLOCK eviction, remembering the evicted key.
  @inlinable
  mutating func evictMainTracked<Sink: VictimSink>(collecting victims: inout Sink) {
    var last = LastVictim()
    queues.evictMain(collecting: &last) { $0 - 1 }
    guard let victim = last.victim else { return }
    mainEvicted.remember(victim.key, size: victim.size)
    victims.record(victim)
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkQueues()
    try smallEvicted.check(named: "small-evicted tracker")
    try mainEvicted.check(named: "main-evicted tracker")
    guard split.small + split.main == capacity, split.small >= 0, split.main >= 0 else {
      throw InvariantViolation("small \(split.small) + main \(split.main) != \(capacity)")
    }
  }
}

/// A ``VictimSink`` that keeps the last victim it was given.
@frozen
public struct LastVictim: VictimSink {
  public var victim: Victim?
  @inlinable public init() {}
  @inlinable public mutating func record(_ victim: Victim) { self.victim = victim }
}
