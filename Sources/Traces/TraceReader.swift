import CacheCore

/// What a trace format carries besides keys.
public struct TraceTraits: Sendable, Equatable {
  /// Requests carry trace time.
  public var hasTime: Bool
  /// Requests carry object sizes (otherwise every size is 1).
  public var hasSize: Bool
  /// Requests carry next-access indices (oracle formats).
  public var hasNextAccess: Bool
  /// Requests carry `RequestAttributes` (HTTP headers, costs, TTLs, events).
  public var hasAttributes: Bool
  /// Requests can carry a time-to-live (``RequestAttributes/ttl``), which `--ttl` uses.
  public var hasTTL: Bool

  public init(
    hasTime: Bool, hasSize: Bool, hasNextAccess: Bool = false, hasAttributes: Bool = false, hasTTL: Bool = false
  ) {
    self.hasTime = hasTime
    self.hasSize = hasSize
    self.hasNextAccess = hasNextAccess
    self.hasAttributes = hasAttributes
    self.hasTTL = hasTTL
  }
}

/// A streaming reader of one trace file.
///
/// Readers hold an open file and a bounded buffer; they deliver requests a batch at a
/// time into a caller-owned ``RequestBatch`` and never load the whole file. A truncated or
/// malformed record throws a ``TraceError`` naming the file and the record or line: a bad
/// trace never becomes a silently shorter run.
public protocol TraceReader: AnyObject {
  /// The file being read.
  var path: String { get }
  /// What the requests carry.
  var traits: TraceTraits { get }
  /// Number of requests delivered so far.
  var requestsRead: Int64 { get }
  /// Exact number of requests in the file when the format tells without reading it.
  var knownRequestCount: Int64? { get }
  /// What reading changed or left out (records skipped, sizes taken from elsewhere, order
  /// repaired), for the run header once the trace has been read; nil when nothing was.
  var notes: String? { get }
  /// The URL text behind each key, for HTTP traces (nil for every other format).
  var trafficBook: TrafficBook? { get }

  /// Replaces the batch's contents with the next requests. Returns false, with the batch
  /// empty, at the end of the trace.
  func read(into batch: RequestBatch) throws(TraceError) -> Bool
}

extension TraceReader {
  public var notes: String? { nil }

  public var trafficBook: TrafficBook? { nil }

  /// Reads up to `limit` requests into an array (for tests and small traces).
  public func collect(limit: Int = .max) throws(TraceError) -> [Request] {
    var result: [Request] = []
    let batch = RequestBatch(capacity: 4096)
    while result.count < limit, try read(into: batch) {
      batch.withRequests { result.append(contentsOf: $0.prefix(limit - result.count)) }
    }
    return result
  }
}
