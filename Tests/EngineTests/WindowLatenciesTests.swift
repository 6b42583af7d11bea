import CacheCore
import Testing

@testable import Engine

/// A window's latency figures are those of the requests in it: the difference of two states
/// of a cumulative histogram reads as a histogram of what came in between.
@Suite struct WindowLatenciesTests {
  /// Stats whose latency histogram holds `values` (µs).
  static func stats(_ values: [UInt64]) -> EngineStats {
    var stats = EngineStats()
    for value in values { _ = stats.latency.record(value) }
    return stats
  }

  @Test func eachWindowReadsOnlyItsOwnRequests() throws {
    var random = SplitMix64(seed: 7)
    let first = (0..<5000).map { _ in 20 + random.next() % 400 }
    let second = (0..<3000).map { _ in 5000 + random.next() % 90000 }
    var windows = WindowLatencies()
    let whole = Self.stats(first)
    let figures = windows.close(whole)
    let after = windows.close(Self.stats(first + second))
    let alone = Self.stats(second)
    for (position, figure) in LatencyFigure.windowed.enumerated() where figure.source == .all {
      #expect(figures[position] == Double(whole.latency.valueAtPercentile(figure.percentile)), "\(figure)")
      #expect(after[position] == Double(alone.latency.valueAtPercentile(figure.percentile)), "\(figure)")
    }
    // A window in which nothing was recorded has no figure, and no tier histograms none.
    let empty = windows.close(Self.stats(first + second))
    #expect(empty.allSatisfy { $0 == nil })
    // Two hours grows the histogram past the earlier one's range: read, not trapped.
    let long: UInt64 = 7_200_000_000
    let grown = windows.close(Self.stats(first + second + [long]))
    for (position, figure) in LatencyFigure.windowed.enumerated() where figure.source == .all {
      #expect(grown[position] == Double(long), "\(figure)")
    }
    windows.reset()
    let noTiers = windows.close(EngineStats.withoutLatency)
    #expect(noTiers.allSatisfy { $0 == nil })
  }
}
