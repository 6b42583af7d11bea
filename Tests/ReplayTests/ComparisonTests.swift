import CacheCore
import Foundation
import Policies
import Replay
import Reports
import Stats
import TestSupport
import Testing
import Traces

/// Which test a comparison uses, and that like is compared with like.
@Suite struct ComparisonTests {
  static let requests = SyntheticTraces.requests(count: 12_000, objects: 1_500, sizes: 100...5_000, seed: 21)
  static let tracePath = Paths.temporaryFile(
    "compare.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
  static let otherPath = Paths.temporaryFile(
    "other.oracleGeneral.bin",
    bytes: SyntheticTraces.oracleGeneral(
      SyntheticTraces.requests(count: 12_000, objects: 1_500, sizes: 100...5_000, seed: 22)))
  static let hitRatio = Metric.named("hit_ratio")!

  static func run(
    path: String = tracePath, policies: String, sizes: String = "0.05", window: WindowSpec? = nil, seed: UInt64 = 0
  ) throws -> RunResult {
    try Replayer(
      RunConfiguration(
        tracePath: path, trace: try TraceSpec(parsing: "oracle-general"), policies: try PolicySpec.parseList(policies),
        capacities: try CapacitySpec.parseList(sizes, objectMode: false), seed: seed, window: window)
    ).run()
  }

  static func compare(_ runs: [RunResult], baseline: String? = nil) throws -> ReportComparison {
    try ReportComparison([ConfigurationSamples.collect(runs, metric: hitRatio)], metric: hitRatio, baseline: baseline)
  }

  /// Two sizes: each policy against the baseline at its own size; deterministic runs without
  /// windows get the exact difference and no test.
  @Test func policiesAreComparedAtEachSize() throws {
    let run = try Self.run(policies: "lru,sieve,fifo", sizes: "0.05,0.2")
    let comparison = try Self.compare([run])
    #expect(
      comparison.lines.map { "\($0.baseline.label) → \($0.candidate.label)" } == [
        "lru @ 0.05 → sieve @ 0.05", "lru @ 0.05 → fifo @ 0.05", "lru @ 0.2 → sieve @ 0.2", "lru @ 0.2 → fifo @ 0.2",
      ])
    for line in comparison.lines {
      #expect(line.test == .exact && line.pValue == nil && line.notes.isEmpty)
      #expect(line.difference == line.candidate.overall - line.baseline.overall)
    }
    #expect(comparison.lines[0].difference == run.caches[2].hitRatio - run.caches[0].hitRatio)
    #expect(comparison.holm.allSatisfy { $0 == nil })
    #expect(comparison.render().contains("deterministic — no test needed"))
    let sieve = try Self.compare([run], baseline: "sieve")
    #expect(sieve.lines.map(\.baseline.name) == ["sieve", "sieve", "sieve", "sieve"])
    #expect(sieve.lines.map(\.candidate.name) == ["lru", "fifo", "lru", "fifo"])
    #expect(throws: ConfigurationError.self) { try Self.compare([run], baseline: "arc") }
  }

  /// Windows of one run pair up: paired t over the windows, Wilcoxon on the same pairs, Holm
  /// over several lines; the same windows read back from a window-series file give the same test.
  @Test func windowsOfOneRunArePaired() throws {
    let run = try Self.run(policies: "lru,sieve,s3fifo", window: .requests(1_000))
    let comparison = try Self.compare([run])
    #expect(comparison.lines.count == 2)
    for line in comparison.lines {
      #expect(line.test == .pairedT && line.samples == .windows)
      #expect(line.pairs == 12 && line.wilcoxon?.method == .exact)
      #expect(line.pValue != nil && line.halfWidth > 0)
    }
    #expect(comparison.holm.allSatisfy { $0 != nil }, "two tested lines: Holm-adjusted")
    #expect(
      comparison.csv().split(separator: "\n")[0].hasSuffix(
        "test,pairs,p_holm,p_wilcoxon,wilcoxon_method,overall_baseline,overall_candidate,note"))
    let series = try ReportTable(path: "windows.csv", text: WindowSeries.render([run]))
    let fromFile = try ReportComparison(
      [ConfigurationSamples.collect(series, metric: Self.hitRatio)], metric: Self.hitRatio)
    #expect(fromFile.lines.map(\.pValue) == comparison.lines.map(\.pValue))
    #expect(fromFile.lines.map(\.test) == comparison.lines.map(\.test))
  }

  /// Window-series files of two runs on different traces cannot pair: Welch on their batch means.
  @Test func windowsOfDifferentTracesAreUnpaired() throws {
    let a = try ReportTable(
      path: "a.csv", text: WindowSeries.render([try Self.run(policies: "lru", window: .requests(1_000))]))
    let b = try ReportTable(
      path: "b.csv",
      text: WindowSeries.render([try Self.run(path: Self.otherPath, policies: "lru", window: .requests(1_000))]))
    let comparison = try ReportComparison(
      [ConfigurationSamples.collect(a, metric: Self.hitRatio), ConfigurationSamples.collect(b, metric: Self.hitRatio)],
      metric: Self.hitRatio)
    #expect(comparison.lines.count == 1 && comparison.lines[0].test == .welch)
    #expect(comparison.render().contains("a.csv: lru @ 0.05 → b.csv: lru @ 0.05"))
  }

  /// Repeats of a randomised policy on a trace file are independent samples (Welch); one run
  /// of it gives nothing to test; identical repeats are deterministic.
  @Test func repeatsOfATraceFileAreUnpaired() throws {
    let runs = try (0..<4).map { try Self.run(policies: "lru,random", seed: UInt64($0)) }
    let comparison = try Self.compare(runs)
    let line = try #require(comparison.lines.first)
    #expect(line.test == .welch && line.samples == .repeats && line.baseline.isDeterministic && line.candidate.varies)
    #expect(line.pValue != nil && line.notes.contains { $0.contains("deterministic") })
    let single = try Self.compare([runs[0]])
    #expect(single.lines[0].test == .none && single.lines[0].pValue == nil)
    let tables = StatisticsTable.tables(runs)
    #expect(tables.count == 1 && tables[0].rows[1].contains("deterministic: no variance"))
    #expect(!tables[0].rows[2].contains("deterministic: no variance"))
  }

  /// Repeats on a synthetic trace share their seed's trace: paired by seed.
  @Test func repeatsOfASyntheticTraceArePairedBySeed() throws {
    var text = "trace,format,policy,params,capacity_spec,ignore_size,warmup,window,seed,hits,requests,hit_ratio\n"
    for seed in 0..<6 {
      let base = 400 + seed * 7 % 5 * 10
      for (policy, hits) in [("lru", base), ("sieve", base + 30 + seed % 3)] {
        text +=
          "\"gen:zipf:objects=100,requests=1000,alpha=1\",oracle-general,\(policy),,0.1,false,0,,\(seed),\(hits),1000,"
        text += Decimal.fixed(Double(hits) / 1000, 6) + "\n"
      }
    }
    let table = try ReportTable(path: "synthetic.csv", text: text)
    let comparison = try ReportComparison(
      [ConfigurationSamples.collect(table, metric: Self.hitRatio)], metric: Self.hitRatio)
    let line = try #require(comparison.lines.first)
    #expect(line.test == .pairedT && line.samples == .repeats && line.pairs == 6)
    #expect(abs(line.difference - 0.031) < 1e-9, "mean of 30 + seed % 3 over six seeds, per 1000")
    #expect(line.wilcoxon?.pValue == 2.0 / 64, "all six differences positive: exact p = 2/2⁶")
  }

  /// The statistics of a windowed run: the overall hit ratio is hits / requests, the window
  /// mean is request-weighted over the complete windows, a short last window is left out.
  @Test func windowMeansAreRequestWeighted() throws {
    var text = "time,key,size\n"
    // 10 000 requests 0.25 s apart; 600 s windows of 2 400 requests and a last one of 400.
    for (index, request) in Self.requests.prefix(10_000).enumerated() {
      text += "\(Double(index) * 0.25),\(request.key),\(request.size)\n"
    }
    let path = Paths.temporaryFile("timed.csv", text: text)
    let run = try Replayer(
      RunConfiguration(
        tracePath: path, trace: try TraceSpec(parsing: "csv"), policies: try PolicySpec.parseList("lru"),
        capacities: try CapacitySpec.parseList("0.1", objectMode: false), window: .traceTime(600_000_000))
    ).run()
    #expect(run.windows.map(\.isPartial) == [false, false, false, false, true])
    let complete = run.windows.dropLast()
    let weighted = Double(complete.reduce(0) { $0 + $1.hits[0] }) / Double(complete.reduce(0) { $0 + $1.requests })
    let row = try #require(ReportRow.rows([run]).first)
    let ratio = try #require(row.windowedHitRatio)
    #expect(abs(ratio.mean - weighted) < 1e-12 && ratio.windows == 4)
    let csv = try ReportTable(path: "r.csv", text: CSVReport.render([run]))
    #expect(csv.value(csv.rows[0], "hit_ratio") == Decimal.fixed(run.caches[0].hitRatio, 6), "overall")
    #expect(csv.value(csv.rows[0], "window_hit_ratio_mean") == Decimal.fixed(weighted, 6))
    #expect(csv.value(csv.rows[0], "window_partial_excluded") == "true")
    let series = try ReportTable(path: "w.csv", text: WindowSeries.render([run]))
    #expect(series.rows.map { series.value($0, "in_statistics") } == ["true", "true", "true", "true", "false"])
    #expect(
      series.rows.map { series.value($0, "start_time") } == [
        "0.000000", "600.000000", "1200.000000", "1800.000000", "2400.000000",
      ])
    #expect(StatisticsTable.render([run]).contains("the last of the 5 windows (400 requests, less than half a window)"))
  }
}
