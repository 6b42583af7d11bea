import CacheCore
import Replay

/// A report column that can be compared and summarised, with how to read it from a row, how
/// to split it into numerator and denominator (ratios, so that an overall figure is
/// Σ numerators / Σ denominators) and how to print it. Registry: ``all``.
public struct Metric: Sendable {
  /// How values are printed.
  public enum Unit: Sendable {
    /// A fraction, printed as a percentage; differences in percentage points.
    case ratio
    case count
    case bytes
    /// Requests per second, printed in millions.
    case speed
    case microseconds
  }

  /// The report column.
  public let name: String
  public let unit: Unit
  /// Numerator and denominator column values of a ratio metric (nil: not a ratio).
  let parts: (@Sendable (_ value: (String) -> Double?) -> (Double, Double)?)?
  /// The metric's numerator and denominator in a window of cache `index` (nil: not per window).
  let window: (@Sendable (WindowRecord, Int) -> (Double, Double))?

  /// Every comparable metric, in display order.
  public static let all: [Metric] = [
    Metric(
      name: "hit_ratio", unit: .ratio, parts: quotient("hits", "requests"),
      window: { (Double($0.hits[$1]), Double($0.requests)) }),
    Metric(
      name: "byte_hit_ratio", unit: .ratio,
      parts: { value in
        guard let bytes = value("request_bytes"), let misses = value("miss_bytes") else { return nil }
        return (bytes - misses, bytes)
      }, window: { (Double($0.hitBytes[$1]), Double($0.requestBytes)) }),
    Metric(
      name: "miss_ratio", unit: .ratio, parts: quotient("misses", "requests"),
      window: { (Double($0.requests - $0.hits[$1]), Double($0.requests)) }),
    Metric(name: "misses", unit: .count, parts: nil, window: nil),
    Metric(name: "miss_bytes", unit: .bytes, parts: nil, window: nil),
    Metric(name: "requests_per_second", unit: .speed, parts: nil, window: nil),
    Metric(name: "memory_hit_ratio", unit: .ratio, parts: quotient("memory_hits", "requests"), window: nil),
    Metric(name: "disk_hit_ratio", unit: .ratio, parts: quotient("disk_hits", "requests"), window: nil),
    Metric(name: "stale_served", unit: .count, parts: nil, window: nil),
    Metric(name: "origin_bytes", unit: .bytes, parts: nil, window: nil),
    Metric(name: "latency_p50", unit: .microseconds, parts: nil, window: nil),
    Metric(name: "latency_p99", unit: .microseconds, parts: nil, window: nil),
  ]

  /// The overall hit ratio, hits / requests.
  public static let hitRatio = all[0]

  /// Names of ``all``.
  public static var names: [String] { all.map(\.name) }

  /// The metric called `name`, or nil.
  public static func named(_ name: String) -> Metric? { all.first { $0.name == name } }

  /// Parts read from two columns.
  private static func quotient(
    _ numerator: String, _ denominator: String
  ) -> @Sendable ((String) -> Double?) -> (Double, Double)? {
    { value in
      guard let top = value(numerator), let bottom = value(denominator) else { return nil }
      return (top, bottom)
    }
  }

  /// Whether the metric has per-window values.
  public var hasWindows: Bool { window != nil }

  /// A value as the tables print it: `43.70 %`, `45041`, `536.43 MiB`, `44.12 M/s`, `117 µs`.
  public func format(_ value: Double) -> String {
    switch unit {
    case .ratio: return Decimal.fixed(value * 100, 2) + " %"
    case .count: return Decimal.fixed(value, value == value.rounded() ? 0 : 1)
    case .bytes: return ByteCount.format(Int64(value.rounded()))
    case .speed: return Decimal.fixed(value / 1e6, 2) + " M/s"
    case .microseconds: return Decimal.fixed(value, value == value.rounded() ? 0 : 1) + " µs"
    }
  }

  /// A confidence interval of the metric itself, clipped to the values it can take (0…1 for
  /// ratios: a Student-t interval over few samples can reach past them).
  public func clip(_ low: Double, _ high: Double) -> (low: Double, high: Double) {
    unit == .ratio ? (max(0, low), min(1, high)) : (max(0, low), high)
  }

  /// `[39.37 %, 39.69 %]`: an interval of the metric, clipped.
  public func formatRange(_ low: Double, _ high: Double) -> String {
    let clipped = clip(low, high)
    return "[\(format(clipped.low)), \(format(clipped.high))]"
  }

  /// A difference with its sign: `+6.73 pp`, `-1204`, `+1.5 MiB`.
  public func formatDifference(_ value: Double) -> String {
    let sign = value > 0 ? "+" : (value < 0 ? "-" : "±")
    switch unit {
    case .ratio: return sign + Decimal.fixed(abs(value) * 100, 2) + " pp"
    default: return sign + format(abs(value))
    }
  }

  /// An interval of differences: `[+5.26, +8.20] pp`.
  public func formatInterval(_ low: Double, _ high: Double) -> String {
    switch unit {
    case .ratio:
      let end = { (value: Double) in (value >= 0 ? "+" : "-") + Decimal.fixed(abs(value) * 100, 2) }
      return "[\(end(low)), \(end(high))] pp"
    default: return "[\(formatDifference(low)), \(formatDifference(high))]"
    }
  }
}
