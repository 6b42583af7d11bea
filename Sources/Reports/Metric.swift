import CacheCore
import Replay

/// A report column that `compare` and `regress` can compare and summarise: a view of a
/// ``ReportColumn`` marked as a metric, which declares its unit, its parts (ratios, so that an
/// overall figure is Σ numerators / Σ denominators) and its per-window values. Registry:
/// ``all``, in report column order.
public struct Metric: Sendable {
  public typealias Unit = ReportColumn.Unit

  /// The report column.
  public let column: ReportColumn

  public var name: String { column.name }
  public var unit: Unit { column.unit ?? .count }
  /// Numerator and denominator column values of a ratio metric (nil: not a ratio).
  var parts: ReportColumn.Parts? { column.parts }
  /// The metric's numerator and denominator in a window of cache `index` (nil: not per window).
  var window: ReportColumn.WindowParts? { column.window }

  /// Every comparable metric, in report column order.
  public static let all: [Metric] = ReportColumn.standard.filter(\.isMetric).map { Metric(column: $0) }

  /// The overall hit ratio, hits / requests.
  public static let hitRatio = named("hit_ratio")!

  /// Names of ``all``.
  public static var names: [String] { all.map(\.name) }

  /// The metric called `name`, or nil.
  public static func named(_ name: String) -> Metric? { all.first { $0.name == name } }

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
