import CacheCore
import Engine
import Foundation
import Policies
import Replay
import Reports
import Stats
import TestSupport
import Testing
import Traces

/// The tests say what they should: a real difference is found, no difference is found about
/// as often as the significance level promises, and windows never change the overall figures.
@Suite struct CalibrationTests {
  static let hitRatio = Metric.named("hit_ratio")!
  static let trace = Paths.temporaryFile(
    "calibration.oracleGeneral.bin",
    bytes: SyntheticTraces.oracleGeneral(SyntheticTraces.requests(count: 2_000, objects: 400, seed: 31)))

  static func run(
    _ policies: String, path: String = trace, format: String = "oracle-general", sizes: String = "0.1",
    ignoreSize: Bool = true, window: WindowSpec? = nil, seed: UInt64 = 0, engines: [LabeledEngine] = [],
    batch: Int = 1 << 16
  ) throws -> RunResult {
    try Replayer(
      RunConfiguration(
        tracePath: path, trace: try TraceSpec(parsing: format), policies: try PolicySpec.parseList(policies),
        capacities: try CapacitySpec.parseList(sizes, objectMode: ignoreSize), engines: engines,
        ignoreSize: ignoreSize, seed: seed, parallel: false, batchSize: batch, window: window)
    ).run()
  }

  /// The case: on cache2k's web07 at 5 % of its objects, SIEVE beats LRU in every
  /// one of the eight 10 000-request windows. Paired, that is significant.
  @Test(.enabled(if: Paths.sharedTraceAvailable("cache2k/web07.trace"), "needs ../shared/traces/cache2k/web07.trace"))
  func web07SieveBeatsLRU() throws {
    let run = try Self.run(
      "lru,sieve", path: Paths.sharedTrace("cache2k/web07.trace"), format: "int32-be", sizes: "0.05",
      window: .requests(10_000))
    let comparison = try ReportComparison(
      [ConfigurationSamples.collect([run], metric: Self.hitRatio)], metric: Self.hitRatio)
    let line = try #require(comparison.lines.first)
    #expect(line.test == .pairedT && line.pairs == 8)
    #expect(try #require(line.pValue) < 0.01)
    #expect(line.difference - line.halfWidth > 0, "the interval excludes 0")
    #expect(line.wilcoxon?.pValue == 2.0 / 256, "eight wins out of eight: exact p = 2/2⁸")
    #expect(abs(line.difference - line.overallDifference) < 0.005, "no partial window: nearly the overall difference")
  }

  /// A/A: a randomised policy against itself with different seed ranges (5 repeats each, an
  /// unpaired Welch test) must reject at α = 0.05 in 2–8 % of 300 comparisons; so must the
  /// paired test on the 20 windows of two seeds of the same policy over the same trace, in
  /// 400 comparisons. (Measured: Welch 12 and 13 of 300, paired 15 and 24 of 400; with
  /// 1 500 paired comparisons 4.9 % for both policies.)
  @Test(arguments: ["random", "hyperbolic"])
  func sameConfigurationRejectsAtTheNominalRate(policy: String) throws {
    let comparisons = 300
    var runs: [RunResult] = []
    for seed in 0..<(comparisons * 10) { runs.append(try Self.run(policy, seed: UInt64(seed), batch: 4096)) }
    var rejected = 0
    for index in 0..<comparisons {
      let a = ConfigurationSamples.collect(Array(runs[(index * 10)..<(index * 10 + 5)]), metric: Self.hitRatio)
      let b = ConfigurationSamples.collect(Array(runs[(index * 10 + 5)..<(index * 10 + 10)]), metric: Self.hitRatio)
      let line = PairComparison(a[0], b[0])
      #expect(line.test == .welch)
      if (line.pValue ?? 1) < 0.05 { rejected += 1 }
    }
    let rate = Double(rejected) / Double(comparisons)
    #expect(rate >= 0.02 && rate <= 0.08, "\(policy): Welch rejected \(rejected) of \(comparisons)")

    var pairedRejected = 0
    let pairedComparisons = 400
    for index in 0..<pairedComparisons {
      let a = ConfigurationSamples.collect(
        [try Self.run(policy, window: .requests(100), seed: UInt64(100_000 + index), batch: 4096)],
        metric: Self.hitRatio)
      let b = ConfigurationSamples.collect(
        [try Self.run(policy, window: .requests(100), seed: UInt64(200_000 + index), batch: 4096)],
        metric: Self.hitRatio)
      let line = PairComparison(a[0], b[0])
      #expect(line.test == .pairedT)
      if (line.pValue ?? 1) < 0.05 { pairedRejected += 1 }
    }
    let pairedRate = Double(pairedRejected) / Double(pairedComparisons)
    #expect(
      pairedRate >= 0.02 && pairedRate <= 0.08, "\(policy): paired t rejected \(pairedRejected) of \(pairedComparisons)"
    )
  }

  /// Windows never change the overall figures: every non-window column of the report is the
  /// same with request windows, time windows or none, for policies and engines, at any batch size.
  @Test func windowedRunsHaveTheOverallFiguresOfUnwindowedRuns() throws {
    let http = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path
    let engines = try ["sdwebimage", "afnetworking"].map {
      LabeledEngine(.preset($0), configuration: try PresetSpec(parsing: $0).configuration)
    }
    let columns = ReportColumn.standard.filter { !$0.isTiming && !$0.name.hasPrefix("window") }
    let render = { (run: RunResult) in CSVReport.render([run], columns: columns) }
    let plain = render(
      try Self.run(
        "lru,random,s3fifo", path: http, format: "cachelab", sizes: "0.01,0.1", ignoreSize: false, engines: engines))
    for (window, batch) in [
      (WindowSpec.requests(1_000), 1 << 16), (.requests(777), 100), (.traceTime(3_600_000_000), 1_000),
    ] {
      let run = try Self.run(
        "lru,random,s3fifo", path: http, format: "cachelab", sizes: "0.01,0.1", ignoreSize: false, window: window,
        engines: engines, batch: batch)
      #expect(render(run) == plain, "\(window), batch \(batch)")
      for index in 0..<run.caches.count {
        let row = ReportRow.rows([run])[index]
        #expect(run.windows.reduce(0) { $0 + $1.hits[index] } == row.hits)
        #expect(run.windows.reduce(0) { $0 + $1.hitBytes[index] } == row.requestBytes - row.missBytes)
      }
    }
  }
}
