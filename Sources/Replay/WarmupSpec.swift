import CacheCore

/// How much of the trace warms the caches before counting starts: a fraction of the
/// requests (`0.2`) or an amount of trace time (`3600s`, `30m`, `2h`, `1d`).
///
/// Warm-up requests go through the caches but are not counted (as libCacheSim's
/// `warmup-fraction`); a fraction F skips the first floor(F × requests) requests.
public enum WarmupSpec: Sendable, Equatable, CustomStringConvertible {
  /// No warm-up.
  case none
  /// This fraction of all requests, in [0, 1).
  case fraction(Double)
  /// The requests before first-request time + this many microseconds.
  case traceTime(Int64)

  /// Parses a warm-up option value.
  ///
  /// - Throws: `ConfigurationError` for anything else.
  public init(parsing text: String) throws(ConfigurationError) {
    let trimmed = text.filter { $0 != " " }.lowercased()
    if trimmed.last?.isLetter == true, let micros = Duration.microseconds(trimmed) {
      self = micros == 0 ? .none : .traceTime(micros)
      return
    }
    if let fraction = Double(trimmed), fraction >= 0, fraction < 1 {
      self = fraction == 0 ? .none : .fraction(fraction)
      return
    }
    throw ConfigurationError(
      .invalidValue,
      "warm-up '\(text)' must be a fraction of the requests in [0, 1) (e.g. 0.2) or trace time (e.g. 3600s, 30m, 2h; at most \(Duration.maximumDescription))"
    )
  }

  /// Whether resolving needs the total number of requests.
  public var needsRequestCount: Bool {
    if case .fraction = self { return true }
    return false
  }

  public var description: String {
    switch self {
    case .none: return "0"
    case .fraction(let fraction): return String(fraction)
    case .traceTime(let micros):
      return micros % microsecondsPerSecond == 0
        ? "\(micros / microsecondsPerSecond)s" : "\(Double(micros) / 1e6)s"
    }
  }
}
