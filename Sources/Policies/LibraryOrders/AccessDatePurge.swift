import CacheCore

/// Purge by oldest last access from a high watermark down to a low one, as AFNetworking's
/// `AFAutoPurgingImageCache` (100 MB capacity, purge to 60 MB preferred usage).
///
/// Reads refresh the last-access date. A new object is always added first; then, if the
/// total exceeds the capacity (strictly), objects are removed oldest access first — the
/// new one included, last — until the total is at most `low × capacity`. So usage dips well
/// below the capacity after each purge, and purges are rare. Ties in access date follow
/// access order. Origin: seed-systems §3.1 (AFAutoPurgingImageCache.m).
/// Memory: one 32-byte arena node + a 4-byte hash bucket per object.
public struct AccessDatePurge: SingleQueuePolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "access-date-purge",
    aliases: ["af-purge"],
    summary: "when over capacity, purge least recently accessed objects down to a low watermark",
    origin: "AFNetworking AFAutoPurgingImageCache (100 MB -> 60 MB)",
    parameters: [
      ParameterSpec("low", default: "0.6", .real(0...1), help: "purge down to this fraction of the capacity")
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket)",
    insertsBeforeTrimming: true,
    libCacheSim: .none(reason: "CacheLab-only (AFNetworking purge)"))

  @usableFromInline var lru: LRU
  @usableFromInline let lowWatermark: Int64
  /// Number of purge runs so far.
  public private(set) var purges: Int64 = 0

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    lru = LRU(capacity: capacity, parameters: parameters, context: context)
    lowWatermark = Int64((Double(capacity) * parameters.real("low")).rounded(.down))
  }

  @inlinable public var capacity: Int64 { lru.capacity }

  @inlinable @inline(__always) public func withQueue<R, E>(_ body: QueueReading<Void, R, E>) throws(E) -> R {
    try lru.withQueue(body)
  }
  @inlinable @inline(__always) public mutating func updateQueue<R>(_ body: QueueUpdating<Void, R>) -> R {
    lru.updateQueue(body)
  }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) { lru.hit(request, at: slot) }

  /// A miss: the object goes in first; over capacity, the least recently accessed objects
  /// (the new one last) leave down to the low watermark. Returns the outcome and the new
  /// object's slot (-1 when it did not stay).
  public mutating func admitMissing<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> (outcome: Outcome, slot: Int32) {
    guard admission.admits(request) else { return (.rejected, -1) }
    let slot = lru.insertReturningSlot(request)
    guard lru.occupiedBytes > lru.capacity else { return (.inserted, slot) }
    purges += 1
    while lru.objectCount > 0, lru.occupiedBytes > lowWatermark {
      lru.evict(collecting: &victims)
    }
    return lru.contains(request.key) ? (.inserted, slot) : (.rejected, -1)
  }
}
