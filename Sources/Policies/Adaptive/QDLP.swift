import CacheCore

/// QD-LP (quick demotion, lazy promotion): a probationary FIFO (10 %) in front of a main
/// CLOCK cache, with a ghost FIFO of recently evicted keys.
///
/// New objects enter the probationary FIFO; a ghost hit goes straight to main. To make room,
/// the FIFO's oldest object is promoted to main if it was hit at least `threshold` times
/// while probationary, otherwise it leaves into the ghost queue (bounded to `ghost` ×
/// capacity bytes); with an empty FIFO, main evicts one object. Main is an n-bit CLOCK that
/// keeps itself within the rest of the capacity, evicting on its own when objects are
/// promoted into it. Objects larger than the FIFO are not admitted. Origin: Yang et al.,
/// "FIFO can be Better than LRU: the Power of Lazy Promotion and Quick Demotion", HotOS 2023;
/// semantics as libCacheSim's `QDLP.c` (QDLP-FIFO).
/// Memory: one 32-byte node + a 4-byte bucket per object, plus the same per ghost entry.
public struct QDLP: GhostedQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "qdlp",
    aliases: ["qd-lp", "qdlp-fifo"],
    summary: "probationary FIFO + ghost in front of a CLOCK main cache (quick demotion, lazy promotion)",
    origin: "Yang et al., HotOS 2023; libCacheSim QDLP.c",
    parameters: [
      ParameterSpec(
        "small", default: "0.1", .real(0.000001...0.999999), help: "probationary FIFO share of the capacity",
        aliases: ["fifo-size-ratio"]),
      ParameterSpec(
        "ghost", default: "0.9", .real(0...10), help: "ghost FIFO size as a fraction of the capacity",
        aliases: ["ghost-size-ratio"]),
      ParameterSpec(
        "threshold", default: "1", .integer(1...255), help: "hits while probationary needed to be promoted",
        aliases: ["move-to-main-threshold"]),
      ParameterSpec(
        "main", default: "clock2", .choice(["clock1", "clock2", "clock3", "clock4"]),
        help: "main cache: CLOCK with a 1- to 4-bit counter", aliases: ["main-cache"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "small=0.1,ghost=0.9,threshold=1,main=clock2", constructor: "QDLP_init",
        peerParameters: "fifo-size-ratio=0.1,ghost-size-ratio=0.9,main-cache=Clock2,move-to-main-threshold=1",
        reference: LibCacheSimReference("qdlp", parameters: "fifo-size-ratio=0.10,main-cache=clock2"))
    ]))

  @usableFromInline var queues: GhostedQueues
  @usableFromInline let split: SmallMainSplit
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    split = SmallMainSplit(capacity: capacity, parameters: parameters)
    let bits = Int(parameters.string("main").dropFirst("clock".count)) ?? 2
    queues = GhostedQueues(
      capacity: capacity, ghostShare: parameters.real("ghost"),
      mainMaximum: UInt8((1 << bits) - 1))
  }

  @inlinable @inline(__always)
  public func withQueues<R, E>(_ body: (borrowing GhostedQueues) throws(E) -> R) throws(E) -> R { try body(queues) }
  @inlinable @inline(__always)
  public mutating func updateQueues<R>(_ body: (inout GhostedQueues) -> R) -> R { body(&queues) }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let found = queues.lookup(request.key)
    if found == .cached { return .hit }
    if request.size > split.small || !admission.admits(request) { return .rejected }
    while occupiedBytes + request.size > capacity { step(collecting: &victims) }
    if found == .ghost {
      let slot = queues.arena.insert(key: request.key, size: request.size, extra: QueueState(queue: QueueState.main))
      return promote(slot, collecting: &victims) ? .inserted : .rejected
    }
    if request.size >= split.small { return .rejected }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var counter = CountingSink(victims)
    while counter.count == 0 { step(collecting: &counter) }
    victims = counter.base
  }

  /// One eviction step: main evicts if the FIFO is empty; otherwise the FIFO's oldest object
  /// is promoted to main or leaves into the ghost queue.
  @inlinable
  mutating func step<Sink: VictimSink>(collecting victims: inout Sink) {
    if queues.small.isEmpty {
      evictMain(collecting: &victims)
      return
    }
    let slot = queues.arena.popBack(from: &queues.small)
    if queues.arena[slot].extra.frequency >= split.threshold {
      _ = promote(slot, collecting: &victims)
    } else {
      victims.record(queues.victim(slot))
      queues.remember(slot)
    }
  }

  /// Puts the unlinked entry at `slot` at main's head with a zero counter, after main makes
  /// room within its share. Returns false (the entry is dropped) if it cannot fit in main.
  @inlinable
  mutating func promote<Sink: VictimSink>(_ slot: Int32, collecting victims: inout Sink) -> Bool {
    let size = queues.arena[slot].size
    guard size <= split.main else {
      victims.record(queues.victim(slot))
      queues.arena.remove(slot)
      return false
    }
    while queues.main.bytes + size > split.main { evictMain(collecting: &victims) }
    queues.pushMain(slot)
    return true
  }

  /// CLOCK: second chances for non-zero counters (each reinsertion takes one away), then
  /// evicts main's oldest zero counter.
  @inlinable
  mutating func evictMain<Sink: VictimSink>(collecting victims: inout Sink) {
    queues.evictMain(collecting: &victims) { $0 - 1 }
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkQueues()
    guard queues.main.bytes <= split.main else {
      throw InvariantViolation("main holds \(queues.main.bytes) > \(split.main)")
    }
  }
}
