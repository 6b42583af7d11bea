import CacheCore
import Engine

/// How counted requests are cut into windows for per-window hit ratios: every N requests
/// (`100000r`) or every span of trace time (`1h`, `30m`, `3600s`).
public enum WindowSpec: Sendable, Equatable, CustomStringConvertible {
  /// Windows of this many counted requests (the last may be shorter).
  case requests(Int64)
  /// Windows of this many microseconds of trace time, from the first counted request.
  case traceTime(Int64)

  /// Parses `100000r` (or `100000requests`) or a duration (`1h`, `30m`, `90s`, `1d`).
  ///
  /// - Throws: `ConfigurationError` for anything else, zero or negative.
  public init(parsing text: String) throws(ConfigurationError) {
    let trimmed = text.filter { $0 != " " }.lowercased()
    for suffix in ["requests", "r"] where trimmed.hasSuffix(suffix) {
      if let count = Int64(trimmed.dropLast(suffix.count)), count > 0 {
        self = .requests(count)
        return
      }
    }
    if trimmed.last?.isLetter == true, let micros = Duration.microseconds(trimmed), micros > 0 {
      self = .traceTime(micros)
      return
    }
    throw ConfigurationError(
      .invalidValue,
      "window '\(text)' must be a request count (e.g. 100000r) or trace time (e.g. 1h, 30m, 600s; at most \(Duration.maximumDescription))"
    )
  }

  public var description: String {
    switch self {
    case .requests(let count): return "\(count)r"
    case .traceTime(let micros): return Duration.format(micros)
    }
  }
}

/// One window of counted requests and, per replayed cache, how many of them hit.
public struct WindowRecord: Sendable, Equatable {
  /// Index of the window's first request among all replayed requests (warm-up included).
  public var firstRequest: Int64
  /// Index just past the window's last request.
  public var endRequest: Int64
  /// Trace time of the window's start in microseconds (its first request's time, or the
  /// window's nominal start for time windows).
  public var startTime: Int64
  /// Trace time of the window's last counted request.
  public var lastTime: Int64
  /// Counted requests (gets) in the window and their bytes.
  public var requests: Int64
  public var requestBytes: Int64
  /// Hits and hit bytes per cache, in the run's cache order (policy caches, then engines).
  public var hits: [Int64]
  public var hitBytes: [Int64]
  /// Whether this is a last window shorter than half a window, left out of the statistics.
  public var isPartial: Bool
  /// Per cache, its `LatencyFigure.windowed` figures in this window, µs (nil for a cache
  /// that records no latency; nil figures where the window recorded no value).
  public var latencies: [[Double?]?]

  public init(
    firstRequest: Int64, endRequest: Int64 = 0, startTime: Int64, lastTime: Int64 = 0, requests: Int64 = 0,
    requestBytes: Int64 = 0, hits: [Int64] = [], hitBytes: [Int64] = [], isPartial: Bool = false,
    latencies: [[Double?]?] = []
  ) {
    self.firstRequest = firstRequest
    self.endRequest = endRequest
    self.startTime = startTime
    self.lastTime = lastTime
    self.requests = requests
    self.requestBytes = requestBytes
    self.hits = hits
    self.hitBytes = hitBytes
    self.isPartial = isPartial
    self.latencies = latencies
  }

  /// Cache `index`'s `figure` in this window, µs; nil where it has none.
  public func latency(_ index: Int, _ figure: LatencyFigure) -> Double? {
    guard index < latencies.count, let figures = latencies[index],
      let position = LatencyFigure.windowed.firstIndex(of: figure)
    else { return nil }
    return figures[position]
  }

  /// Hit ratio of cache `index` in this window.
  public func hitRatio(_ index: Int) -> Double { requests > 0 ? Double(hits[index]) / Double(requests) : 0 }

  /// Byte hit ratio of cache `index` in this window.
  public func byteHitRatio(_ index: Int) -> Double {
    requestBytes > 0 ? Double(hitBytes[index]) / Double(requestBytes) : 0
  }
}
