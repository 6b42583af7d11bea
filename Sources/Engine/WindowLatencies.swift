import Histogram

/// A latency figure a report can give per window: a percentile of every request's latency
/// or of one tier's histogram (``TierLatencies``), µs.
public struct LatencyFigure: Sendable, Hashable {
  /// The histogram the figure reads.
  public enum Source: Sendable, Hashable {
    case all, memoryHit, diskHit, diskWrite, origin
  }

  public var source: Source
  public var percentile: Double

  public init(_ source: Source, _ percentile: Double) {
    self.source = source
    self.percentile = percentile
  }

  /// The figures every window records, in this order (one per latency column of the report).
  public static let windowed: [LatencyFigure] = [
    LatencyFigure(.all, 50), LatencyFigure(.all, 90), LatencyFigure(.all, 99), LatencyFigure(.all, 99.9),
    LatencyFigure(.memoryHit, 50), LatencyFigure(.diskHit, 50), LatencyFigure(.diskHit, 90),
    LatencyFigure(.diskWrite, 50), LatencyFigure(.origin, 50),
  ]

  /// The figure's histogram in `stats` (nil: an engine without per-tier figures).
  public func histogram(_ stats: EngineStats) -> Histogram<UInt64>? {
    switch source {
    case .all: return stats.latency
    case .memoryHit: return stats.tiers?.memoryHit
    case .diskHit: return stats.tiers?.diskHit
    case .diskWrite: return stats.tiers?.diskWrite
    case .origin: return stats.tiers?.origin
    }
  }
}

/// An engine's latency figures window by window: at each window's end, the percentiles of
/// what was recorded since the previous end, from the difference of the cumulative
/// histograms, as HDR's `valueAtPercentile` reads a whole histogram. Nothing per request;
/// O(histogram buckets) and a copy of the histograms (about 25 KB each) per window.
public struct WindowLatencies: Sendable {
  private var previous: EngineStats?

  public init() {}

  /// Forgets the previous window's end (the counters were reset).
  public mutating func reset() { previous = nil }

  /// The ``LatencyFigure/windowed`` figures of the window that ends with `stats` (the
  /// engine's cumulative figures now); nil for each figure the window recorded no value of.
  public mutating func close(_ stats: EngineStats) -> [Double?] {
    defer { previous = stats }
    return LatencyFigure.windowed.map { figure in
      guard let current = figure.histogram(stats) else { return nil }
      return Self.percentile(figure.percentile, of: current, since: previous.flatMap(figure.histogram))
    }
  }

  /// The value at `percentile` of `current` minus `earlier` (an earlier state of the same
  /// cumulative histogram); nil when nothing was recorded in between. O(buckets).
  static func percentile(_ percentile: Double, of current: Histogram<UInt64>, since earlier: Histogram<UInt64>?)
    -> Double?
  {
    let total = current.totalCount - (earlier?.totalCount ?? 0)
    guard total > 0 else { return nil }
    // As `valueAtPercentile`: the first bucket whose running count reaches ⌈p·total⌉.
    let requested = Swift.min(Swift.max(percentile.nextDown, 0), 100)
    let wanted = Swift.max(1, UInt64((requested * Double(total) / 100).rounded(.up)))
    var seen: UInt64 = 0
    for step in current.recordedValues() {
      seen += step.count - (earlier?.countForValue(step.value) ?? 0)
      if seen >= wanted {
        return Double(Swift.min(current.highestEquivalentForValue(step.value), current.maxRecorded))
      }
    }
    return nil
  }
}
