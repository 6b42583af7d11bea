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
/// histograms, read as HDR's `valueAtPercentile` reads a whole histogram (within the
/// histogram's resolution: the top bucket is clamped to the run's largest value so far).
/// Nothing per request; per window and engine, a copy of the engine's histograms (the whole
/// latency's about 190 KB, each tier's about 25 KB) and one walk over each one's buckets.
public struct WindowLatencies: Sendable {
  private var previous: EngineStats?

  public init() {}

  /// Forgets the previous window's end (the counters were reset).
  public mutating func reset() { previous = nil }

  /// The ``LatencyFigure/windowed`` figures of the window that ends with `stats` (the
  /// engine's cumulative figures now); nil for each figure the window recorded no value of.
  public mutating func close(_ stats: EngineStats) -> [Double?] {
    defer { previous = stats }
    let figures = LatencyFigure.windowed
    var result = [Double?](repeating: nil, count: figures.count)
    var done: [LatencyFigure.Source] = []
    for figure in figures where !done.contains(figure.source) {
      done.append(figure.source)
      guard let current = figure.histogram(stats) else { continue }
      let positions = figures.indices.filter { figures[$0].source == figure.source }
      let values = Self.percentiles(
        positions.map { figures[$0].percentile }, of: current, since: previous.flatMap(figure.histogram))
      for (position, value) in zip(positions, values) { result[position] = value }
    }
    return result
  }

  /// The values at `percentiles` of `current` minus `earlier` (an earlier state of the same
  /// cumulative histogram); nil each when nothing was recorded in between. One walk, O(buckets).
  static func percentiles(_ percentiles: [Double], of current: Histogram<UInt64>, since earlier: Histogram<UInt64>?)
    -> [Double?]
  {
    let total = current.totalCount - (earlier?.totalCount ?? 0)
    guard total > 0 else { return percentiles.map { _ in nil } }
    // As `valueAtPercentile`: the first bucket whose running count reaches ⌈p·total⌉.
    let wanted = percentiles.map { percentile in
      let requested = Swift.min(Swift.max(percentile.nextDown, 0), 100)
      return Swift.max(1, UInt64((requested * Double(total) / 100).rounded(.up)))
    }
    // The earlier histogram's buckets end at its largest value's (it may have grown since).
    let earlierEnd = earlier.map { $0.totalCount > 0 ? $0.highestEquivalentForValue($0.maxRecorded) : 0 }
    var result = [Double?](repeating: nil, count: percentiles.count)
    var remaining = percentiles.count
    var seen: UInt64 = 0
    for step in current.recordedValues() {
      if let earlier, let earlierEnd, step.value <= earlierEnd {
        seen += step.count - earlier.countForValue(step.value)
      } else {
        seen += step.count
      }
      for index in wanted.indices where result[index] == nil && seen >= wanted[index] {
        result[index] = Double(Swift.min(current.highestEquivalentForValue(step.value), current.maxRecorded))
        remaining -= 1
      }
      if remaining == 0 { break }
    }
    return result
  }
}
