import CacheCore

/// S3-FIFO: a small FIFO filters one-hit wonders, a main FIFO with reinsertion keeps the
/// rest, and a ghost FIFO remembers recently evicted keys.
///
/// New objects enter the small queue (10 % of the capacity in bytes); a ghost hit goes
/// straight to main. When room is needed: if main is over its share (or small is empty),
/// main's oldest object is reinserted while its counter is non-zero (counter =
/// min(counter, 3) − 1) and otherwise evicted; else small's oldest object moves to main if
/// it was accessed at least `threshold` times in small, or is evicted into the ghost queue
/// (bounded to `ghost` × capacity bytes). Objects larger than the small queue are not
/// admitted. Origin: Yang et al., "FIFO queues are all you need for cache eviction", SOSP
/// 2023; semantics as libCacheSim's S3-FIFO of 2023 (later `S3FIFOv0.c`).
/// Memory: one 32-byte node (queue and counter in the node) + a 4-byte bucket per object,
/// plus the same for each ghost entry.
public struct S3FIFO: GhostedQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "s3fifo",
    aliases: ["s3-fifo"],
    summary: "small FIFO + main FIFO with reinsertion + ghost FIFO; filters one-hit wonders",
    origin: "Yang et al., SOSP 2023; libCacheSim S3-FIFO (2023, later S3FIFOv0.c)",
    parameters: [
      ParameterSpec(
        "small", default: "0.1", .real(0.000001...0.999999), help: "small FIFO share of the capacity",
        aliases: ["fifo-size-ratio", "small-size-ratio"]),
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
        parameters: "small=0.1,ghost=0.9,threshold=2", constructor: "S3FIFOv0_init",
        peerParameters: "fifo-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=2",
        note: "CacheLab follows the 2023 S3-FIFO, kept in libCacheSim as S3FIFOv0.c",
        reference: LibCacheSimReference(
          "s3fifo", parameters: "fifo-size-ratio=0.10,ghost-size-ratio=0.90,move-to-main-threshold=2"))
    ]))

  @usableFromInline var queues: GhostedQueues
  @usableFromInline let split: SmallMainSplit
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

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    handleSmallFirst(request, collecting: &victims, admission: admission, smallCapacity: split.small) {
      $0.evict(collecting: &$1)
    }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    while true {
      if (queues.main.bytes > split.main || queues.small.bytes == 0) && !queues.main.isEmpty {
        evictMain(collecting: &victims)
        return
      }
      if evictSmall(collecting: &victims) { return }
    }
  }

  /// Moves small's oldest objects to main while they qualify; evicts the first that does
  /// not into the ghost queue. Returns whether an object left the cache.
  @inlinable
  mutating func evictSmall<Sink: VictimSink>(collecting victims: inout Sink) -> Bool {
    queues.evictSmall(threshold: split.threshold, collecting: &victims)
  }

  /// Main's CLOCK with libCacheSim's S3-FIFO rule: a reinserted object's counter becomes
  /// min(counter, 3) − 1.
  @inlinable
  mutating func evictMain<Sink: VictimSink>(collecting victims: inout Sink) {
    queues.evictMain(collecting: &victims) { min($0, 3) - 1 }
  }
}
