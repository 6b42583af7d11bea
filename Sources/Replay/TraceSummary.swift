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
        for request in requests {
          summary.requests += 1
          summary.requestBytes &+= request.size
          if seen.find(request.key) < 0 {
            _ = seen.insert(key: request.key, size: 0, extra: ())
            summary.uniqueObjects += 1
            summary.workingSetBytes &+= request.size
          }
        }
        if let last = requests.last { summary.lastTime = last.time }
      }
      progress?(summary.requests)
    }
    return summary
  }
}
