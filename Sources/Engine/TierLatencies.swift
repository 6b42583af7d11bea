import Histogram

/// Where an engine's request time went: per-operation latency histograms (µs, two
/// significant digits, about 25 KB each) and the microseconds spent per kind of answer.
public struct TierLatencies: Sendable {
  /// What answered a request.
  public enum Answer: Int, Sendable, CaseIterable {
    /// A memory hit, also one served while a revalidation runs in the background.
    case memory
    /// A disk hit (or a hit in the disk library's own memory cache).
    case disk
    /// A conditional request to the origin (304, or 200 with the new body).
    case revalidation
    /// A full fetch, an origin error, or a request past the cache.
    case origin

    public var name: String {
      switch self {
      case .memory: return "memory"
      case .disk: return "disk"
      case .revalidation: return "revalidation"
      case .origin: return "origin"
      }
    }
  }

  /// Latency of each request answered from memory.
  public var memoryHit = TierLatencies.histogram()
  /// Latency of each request answered from disk.
  public var diskHit = TierLatencies.histogram()
  /// Latency of each full fetch from the origin (also errors and requests past the cache).
  public var origin = TierLatencies.histogram()
  /// Cost of each write of an object to disk (after the response: in no request's latency).
  public var diskWrite = TierLatencies.histogram()
  /// Microseconds of request latency per ``Answer`` (indexed by its raw value).
  public var totals: [Int64] = Array(repeating: 0, count: Answer.allCases.count)
  /// Requests per ``Answer`` (indexed by its raw value).
  public var counts: [Int64] = Array(repeating: 0, count: Answer.allCases.count)

  public init() {}

  static func histogram() -> Histogram<UInt64> {
    var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .two)
    histogram.autoResize = true
    return histogram
  }

  /// Microseconds of request latency spent on `answer`.
  public func total(_ answer: Answer) -> Int64 { totals[answer.rawValue] }

  /// Requests `answer` answered.
  public func count(_ answer: Answer) -> Int64 { counts[answer.rawValue] }
}
