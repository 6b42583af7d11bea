import CacheCore
import Engine
import Replay
import Reports
import TestSupport
import Testing
import Traces

/// Engines' latency figures per window, as `compare` pairs them.
@Suite struct WindowLatencyReplayTests {
  static let presets = ["sdwebimage", "urlcache-linux", "nuke"]

  static func run(window: WindowSpec?) throws -> RunResult {
    let engines = try presets.map { name in
      LabeledEngine(.preset(name), configuration: try PresetSpec(parsing: name).configuration)
    }
    var configuration = RunConfiguration(
      tracePath: BackendEquivalenceTests.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [],
      capacities: [], engines: engines)
    configuration.window = window
    return try Replayer(configuration).run()
  }

  @Test func oneWindowOverTheWholeRunHoldsTheRunsOwnFigures() throws {
    let whole = try Self.run(window: nil)
    let requests = try #require(whole.caches.first).stats.requests
    let windowed = try Self.run(window: .requests(requests))
    let window = try #require(windowed.windows.first)
    #expect(windowed.windows.count == 1 && !window.isPartial)
    for (index, cache) in whole.caches.enumerated() {
      for figure in LatencyFigure.windowed {
        let histogram = try #require(figure.histogram(cache.stats))
        let expected = histogram.totalCount > 0 ? Double(histogram.valueAtPercentile(figure.percentile)) : nil
        #expect(window.latency(index, figure) == expected, "\(cache.label) \(figure)")
      }
    }
  }

  @Test func everyLatencyColumnIsAMetricWithWindows() throws {
    let run = try Self.run(window: .requests(1000))
    let latency = Metric.all.filter { $0.unit == .microseconds }
    #expect(
      Set(latency.map(\.name)).isSuperset(of: [
        "latency_p50", "latency_p99", "memory_hit_latency_p50", "disk_hit_latency_p50", "disk_hit_latency_p90",
        "disk_write_latency_p50", "origin_latency_p50",
      ]))
    for metric in latency {
      #expect(metric.hasWindows, "\(metric.name)")
      for row in ReportRow.rows([run]) {
        let parts = try #require(row.windowParts(metric))
        #expect(parts.numerators.count == parts.numbers.count && parts.numerators.count >= 8, "\(metric.name)")
        #expect(parts.denominators.allSatisfy { $0 == 1 } && parts.numerators.allSatisfy { $0 > 0 })
      }
    }
  }

  @Test func windowsWithAValueOnOneSideOnlyAreNotPaired() throws {
    let run = try Self.run(window: .requests(1000))
    let metric = try #require(Metric.named("disk_hit_latency_p50"))
    var samples = ConfigurationSamples.collect([run], metric: metric)
    let paired = PairComparison(samples[0], samples[1])
    #expect(paired.test == .pairedT && paired.samples == .windows)
    // Window 0 left out on one side, window 1 on the other: as many windows, not the same ones.
    for side in 0..<2 {
      guard case .series(let spec, var numerators, var denominators, let excluded) = samples[side].windows else {
        Issue.record("no window series")
        return
      }
      numerators.remove(at: side)
      denominators.remove(at: side)
      samples[side].windows = .series(
        spec: spec, numerators: numerators, denominators: denominators, excluded: excluded + 1)
      samples[side].windowNumbers?.remove(at: side)
    }
    let unpaired = PairComparison(samples[0], samples[1])
    #expect(unpaired.test == .welch && unpaired.notes.contains { $0.contains("have a value") }, "\(unpaired.notes)")
  }

  /// A window-series file read back for a latency metric: a window without a value is left
  /// out (and counted as such), the repeat stays one, and the windows kept are named.
  @Test func aSeriesFileWindowWithoutAValueIsLeftOutOnce() throws {
    let run = try Self.run(window: .requests(1000))
    var table = try ReportTable(path: "windows.csv", text: WindowSeries.render([run]))
    let metric = try #require(Metric.named("disk_hit_latency_p50"))
    let column = try #require(table.header.firstIndex(of: metric.name))
    table.rows[0][column] = ""
    let samples = try ConfigurationSamples.collect(table, metric: metric)
    let first = try #require(samples.first)
    #expect(first.repeats.count == 1)
    guard case .series(_, let numerators, _, let excluded) = first.windows else {
      Issue.record("no window series")
      return
    }
    #expect(first.windowNumbers == Array(1..<(numerators.count + 1)) && excluded == 1)
    let live = try #require(ReportRow.rows([run]).first?.windowParts(metric))
    #expect(numerators == Array(live.numerators.dropFirst()))
  }
}
