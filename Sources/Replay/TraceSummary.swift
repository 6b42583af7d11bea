import CacheCore
import Traces

/// Totals of a whole trace, from one streaming pre-pass.
public struct TraceSummary: Sendable, Equatable {
  /// Number of requests.
  public var requests: Int64 = 0
  /// Sum of request sizes.
  public var requestBytes: Int64 = 0
  /// Number of distinct objects.
  public var uniqueObjects: Int64 = 0
  /// Sum of each distinct object's first-seen size (the peer's working-set measure).
  public var workingSetBytes: Int64 = 0
  /// Time of the first and last request (microseconds).
  public var firstTime: Int64 = 0
  public var lastTime: Int64 = 0
  /// What decides whether one LRU stack pass is exact at a size (``ReplayMethod``): the
  /// largest size of a get, whether a get had size 0, whether a get's size differed from the
  /// object's earlier gets', and the put and delete rows.
  public var largestGet: Int64 = 0
  public var hasZeroSizeGet = false
  public var getSizesChange = false
  public var putsAndDeletes: Int64 = 0

  public init() {}

  /// The working set in the run's unit: bytes, or objects in object mode.
  public func workingSet(objectMode: Bool) -> Int64 {
    objectMode ? uniqueObjects : workingSetBytes
  }

  /// Reads the whole trace once, calling `progress` with the requests read after each batch.
  /// Memory: one hash entry per distinct object.
  public static func scan(
    _ reader: any TraceReader, batch: RequestBatch, progress: ((Int64) -> Void)? = nil
  ) throws(TraceError) -> TraceSummary {
    var summary = TraceSummary()
    var seen = SlotArena<Void>(initialCapacity: 1 << 16)
    var first = true
    while try reader.read(into: batch) {
      batch.withRequests { requests in
        if first, let head = requests.first {
          summary.firstTime = head.time
          first = false
        }
        for index in requests.indices {
          if index &+ 16 < requests.count { seen.prefetchBucket(of: requests[index &+ 16].key) }
          if index &+ 8 < requests.count { seen.prefetchNode(of: requests[index &+ 8].key) }
          let request = requests[index]
          summary.requests += 1
          summary.requestBytes &+= request.size
          let slot = seen.find(request.key)
          if slot < 0 {
            // The node keeps the size of the object's first get (-1 until it has one).
            _ = seen.insert(key: request.key, size: request.operation == .get ? request.size : -1, extra: ())
            summary.uniqueObjects += 1
            summary.workingSetBytes &+= request.size
          } else if request.operation == .get {
            let first = seen[slot].size
            if first < 0 {
              seen[slot].size = request.size
            } else if first != request.size {
              summary.getSizesChange = true
            }
          }
          switch request.operation {
          case .get:
            summary.largestGet = max(summary.largestGet, request.size)
            if request.size == 0 { summary.hasZeroSizeGet = true }
          case .put, .delete: summary.putsAndDeletes += 1
          case .event, .origin: break
          }
        }
        if let last = requests.last { summary.lastTime = last.time }
      }
      progress?(summary.requests)
    }
    return summary
  }
}
