import CacheCore

/// libCacheSim's current S3-FIFO (the December 2024 rewrite of `S3FIFO.c`; CacheLab's
/// `s3fifo` is the paper's version, libCacheSim's `S3FIFOv0.c`).
///
/// The same three FIFO queues, with these differences: until the first eviction, new objects
/// overflow into main once small is full; main is a 2-bit CLOCK whose counters grow without
/// bound and are reinserted as min(counter, 3) − 1; each eviction step removes one object
/// (a small-queue pass that only promotes leaves the next step to main); an object may be
/// admitted only if it fits in small, and one the size of small or larger is refused after
/// the evictions made for it (so a small queue of one unit caches nothing, as in the package).
/// A ghost hit consumes the ghost entry. Origin: Yang et al., SOSP 2023; libCacheSim
/// `S3FIFO.c` (2024).
/// Memory: 36 B (32 B node + 4 B bucket) per object and per ghost entry.
public struct S3FIFO2024: GhostedQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "s3fifo-2024",
    summary: "libCacheSim's current S3-FIFO: warm-up overflow into main, 2-bit CLOCK main, one object per step",
    origin: "Yang et al., SOSP 2023; libCacheSim S3FIFO.c (2024 rewrite)",
    parameters: [
      ParameterSpec(
        "small", default: "0.1", .real(0.000001...0.999999), help: "small FIFO share of the capacity",
        aliases: ["small-size-ratio"]),
      ParameterSpec(
        "ghost", default: "0.9", .real(0...10), help: "ghost FIFO size as a fraction of the capacity",
        aliases: ["ghost-size-ratio"]),
      ParameterSpec(
        "threshold", default: "2", .integer(1...255), help: "accesses in small needed to move to main",
        aliases: ["move-to-main-threshold"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "small=0.1,ghost=0.9,threshold=2", constructor: "S3FIFO_init",
        peerParameters: "small-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=2")
    ]))

  @usableFromInline var queues: GhostedQueues
  @usableFromInline let split: SmallMainSplit
  /// Whether anything has been evicted yet (the end of warm-up).
  @usableFromInline var hasEvicted = false
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    split = SmallMainSplit(capacity: capacity, parameters: parameters)
    queues = GhostedQueues(
      capacity: capacity, ghostShare: parameters.real("ghost"), mainMaximum: .max)
  }

  @inlinable @inline(__always)
  public func withQueues<R, E>(_ body: (borrowing GhostedQueues) throws(E) -> R) throws(E) -> R { try body(queues) }
  @inlinable @inline(__always)
  public mutating func updateQueues<R>(_ body: (inout GhostedQueues) -> R) -> R { body(&queues) }

  /// New objects enter small, or main while warming up with small full.
  @inlinable
  public mutating func insert(_ request: Request) {
    let warmingUp = !hasEvicted && queues.small.bytes >= split.small
    queues.insert(request, into: warmingUp ? QueueState.main : QueueState.small)
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    handleSmallFirst(request, collecting: &victims, admission: admission, smallCapacity: split.small) {
      $0.evictStep(collecting: &$1)
    }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    evictByStepping(collecting: &victims) { $0.evictStep(collecting: &$1) }
  }

  /// One eviction step (libCacheSim's `S3FIFO_evict`): main's CLOCK when main is over its
  /// share or small is empty, else small's pass, which may only promote.
  @inlinable
  mutating func evictStep<Sink: VictimSink>(collecting victims: inout Sink) {
    hasEvicted = true
    if queues.main.bytes > split.main || queues.small.isEmpty {
      if !queues.main.isEmpty { queues.evictMain(collecting: &victims) { min($0, 3) - 1 } }
      return
    }
    _ = queues.evictSmall(threshold: split.threshold, collecting: &victims)
  }
}
