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

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Report directories (Markdown + SVG charts), statistics over report rows and comparisons.
@Suite struct ReportDirectoryTests {
  static let httpTrace = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path

  /// Parses `path` as XML; returns the root element's name and the number of elements.
  static func parseXML(_ path: String) throws -> (root: String?, elements: Int) {
    final class Counter: NSObject, XMLParserDelegate {
      var root: String?
      var elements = 0
      func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
      ) {
        if root == nil { root = name }
        elements += 1
      }
    }
    let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
    let counter = Counter()
    parser.delegate = counter
    #expect(parser.parse(), "\(path): \(parser.parserError.map { "\($0)" } ?? "")")
    return (counter.root, counter.elements)
  }

  @Test func writesMarkdownAndWellFormedCharts() throws {
    let configuration = RunConfiguration(
      tracePath: Self.httpTrace, trace: try TraceSpec(parsing: "cachelab"),
      policies: try PolicySpec.parseList("lru,sieve"),
      capacities: try CapacitySpec.parseList("0.01,0.1,0.5", objectMode: false),
      engines: try ["sdwebimage", "afnetworking"].map {
        LabeledEngine(.preset($0), configuration: try PresetSpec(parsing: $0).configuration)
      }, window: .requests(2_000))
    let runs = [try Replayer(configuration).run()]
    let directory = Paths.temporaryDirectory("report").path
    let files = try ReportDirectory.write(runs, to: directory + "/nested")
    #expect(
      Set(files) == [
        "report.csv", "windows.csv", "miss-ratio.svg", "hit-ratio-over-time.svg", "latency-cdf.svg",
        "latency-breakdown.svg", "README.md",
      ])
    for chart in files where chart.hasSuffix(".svg") {
      let parsed = try Self.parseXML(directory + "/nested/" + chart)
      #expect(parsed.root == "svg", "\(chart)")
      #expect(parsed.elements > 20, "\(chart) has axes, lines and a legend")
    }
    let curve = try String(contentsOfFile: directory + "/nested/miss-ratio.svg", encoding: .utf8)
    #expect(curve.contains(">lru<") && curve.contains(">sieve<") && curve.contains("<polyline"))
    let markdown = try String(contentsOfFile: directory + "/nested/README.md", encoding: .utf8)
    #expect(markdown.contains("![Miss ratio curve") && markdown.contains("(latency-cdf.svg)"))
    #expect(
      markdown.contains("- latency model: default (`memory=20us,") && markdown.contains("(latency-breakdown.svg)"))
    // The same tables, figures and rounding as the terminal.
    #expect(markdown.contains(TableReport.markdown(TableReport.cacheRows(runs[0]))))
    #expect(markdown.contains(TableReport.markdown(TableReport.engineRows(runs[0]))), "stale, tiers, origin, latency")
    #expect(markdown.contains("## Miss ratio by size\n\n" + TableReport.markdown(MissRatioCurve.matrix(runs))))
    #expect(markdown.contains(try #require(MissRatioCurve.best(runs)).dropFirst()), "the best policy at each size")
    for table in StatisticsTable.tables(runs) { #expect(markdown.contains(TableReport.markdown(table.rows))) }
    #expect(markdown.contains("| window mean | window sd |"), "window summaries are labelled as such")
    #expect(markdown.contains("| lru @ 0.01 → sieve @ 0.01 | paired-t | 5 windows |"), "like with like, test named")
    #expect(markdown.contains("| preset:sdwebimage → preset:afnetworking | paired-t |"))
    #expect(markdown.contains("p Holm"))
    let csv = try String(contentsOfFile: directory + "/nested/report.csv", encoding: .utf8)
    #expect(csv == CSVReport.render(runs))
    let series = try ReportTable(contentsOf: directory + "/nested/windows.csv")
    #expect(series.rows.count == runs[0].caches.count * runs[0].windows.count)
  }

  /// A run of engines alone (sizes given, no policies) has an engines table and no policy
  /// sections or miss-ratio chart: they would be empty.
  @Test func engineOnlyRunHasNoPolicySections() throws {
    let configuration = RunConfiguration(
      tracePath: Self.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [],
      capacities: try CapacitySpec.parseList("0.01,0.1", objectMode: false),
      engines: [LabeledEngine(.preset("nuke"), configuration: try PresetSpec(parsing: "nuke").configuration)])
    let runs = [try Replayer(configuration).run()]
    #expect(runs[0].policyRuns.isEmpty && runs[0].engines.count == 1)
    let directory = Paths.temporaryDirectory("engine-report").path
    let files = try ReportDirectory.write(runs, to: directory)
    #expect(!files.contains("miss-ratio.svg"))
    let markdown = try String(contentsOfFile: directory + "/README.md", encoding: .utf8)
    #expect(markdown.contains("## Engines"))
    #expect(!markdown.contains("## Results") && !markdown.contains("## Miss ratio by size"))
  }

  /// The engines of a run are engines: a plain policy run among them is refused (results
  /// tell the two apart by configuration), with a message naming it.
  @Test func aPolicyRunAmongTheEnginesIsRefused() throws {
    let tier = try TierConfiguration(parsing: "lru:1MiB")
    let configuration = RunConfiguration(
      tracePath: Self.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [], capacities: [],
      engines: [LabeledEngine(.custom, configuration: .policyRun(tier))])
    #expect(throws: ReplayError.self) { try Replayer(configuration).run() }
    do {
      _ = try Replayer(configuration).run()
    } catch {
      #expect("\(error)".contains("plain policy run"))
    }
  }

  /// The latency CDF steps through every recorded bucket of each engine's histogram, and two
  /// engines with equal latencies are drawn in different line styles; the breakdown splits
  /// each engine's time by what answered.
  @Test func latencyChartsShowEveryBucketAndTellEqualCurvesApart() throws {
    let engines = try ["nuke", "zzdiskcache"].map {
      LabeledEngine(.preset($0), configuration: try PresetSpec(parsing: $0).configuration)
    }
    let configuration = RunConfiguration(
      tracePath: Self.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [], capacities: [],
      engines: [engines[0], engines[0], engines[1]])
    let run = try Replayer(configuration).run()
    let chart = try #require(ReportDirectory.latencyChart([run]))
    for (series, engine) in zip(chart.series, run.engines) {
      var buckets = 0
      for _ in engine.stats.latency.recordedValues() { buckets += 1 }
      #expect(series.points.count == buckets && buckets > 30, "\(engine.label): \(buckets) buckets")
      #expect(series.points.last?.y == 1)
    }
    #expect(chart.series[0].points.map(\.x) == chart.series[1].points.map(\.x), "the same engine twice")
    let svg = chart.render()
    let dashes = svg.components(separatedBy: "stroke-dasharray=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(Set(dashes).count == 2 && !svg.isEmpty, "a solid line and two dash patterns: \(dashes)")
    let breakdown = try #require(LatencyBreakdownChart([run]))
    #expect(breakdown.bars.count == 3)
    let nuke = breakdown.bars[0]
    let tiers = try #require(run.engines.first?.stats.tiers)
    #expect(nuke.totals == tiers.totals && nuke.totals.reduce(0, +) > 0)
    let path = Paths.temporaryFile("breakdown.svg", text: breakdown.render())
    #expect(try Self.parseXML(path).root == "svg")
    #expect(breakdown.render().contains(">origin<") && breakdown.render().contains("mean per request"))
    let policiesOnly = RunConfiguration(
      tracePath: Self.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: try PolicySpec.parseList("lru"),
      capacities: try CapacitySpec.parseList("0.1", objectMode: false))
    #expect(LatencyBreakdownChart([try Replayer(policiesOnly).run()]) == nil, "policy runs model no latency")
  }

  @Test func chartsEscapeTextAndHandleNoData() throws {
    let chart = SVGChart(title: "a < b & \"c\"", xLabel: "x", yLabel: "y", series: [])
    let path = Paths.temporaryFile("empty.svg", text: chart.render())
    #expect(try Self.parseXML(path).root == "svg")
    #expect(SVGChart.ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    #expect(SVGChart.bytes(1_572_864) == "1.5 MiB" && SVGChart.compact(2_500) == "2.5k")
  }

  /// Repeated rows are the samples of a configuration; a windowed row keeps its windows'
  /// summary (weighted mean, interval, batches), from which the standard error is recovered.
  @Test func reportRowsBecomeSamples() throws {
    let text = """
      trace,format,policy,params,capacity,ignore_size,warmup,window,seed,hits,requests,hit_ratio,windows,window_hit_ratio_mean,window_hit_ratio_ci95_low,window_hit_ratio_ci95_high,window_batches
      t,csv,random,,10,false,0,,0,50,100,0.50,,,,,
      t,csv,random,,10,false,0,,1,52,100,0.52,,,,,
      t,csv,random,,10,false,0,,2,54,100,0.54,,,,,
      t,csv,lru,,10,false,0,100r,0,240,400,0.60,4,0.60,0.55,0.65,4

      """
    let table = try ReportTable(path: "s.csv", text: text)
    let metric = try #require(Metric.named("hit_ratio"))
    let samples = try ConfigurationSamples.collect(table, metric: metric)
    #expect(samples.map(\.label) == ["random @ 10 B", "lru @ 10 B"])
    #expect(samples[0].repeats.map(\.seed) == [0, 1, 2] && samples[0].varies)
    #expect(abs(samples[0].overall - 156.0 / 300) < 1e-12, "overall: hits / requests")
    #expect(samples[0].isRandomized == true && samples[1].isRandomized == false)
    guard case .summary(let spec, let mean, let error, let batches) = samples[1].windows else {
      Issue.record("the windowed row keeps its summary")
      return
    }
    #expect(spec == "100r" && mean == 0.60 && batches == 4)
    #expect(abs(error - 0.05 / SampleSummary.tQuantile(0.95, degreesOfFreedom: 3)) < 1e-12)
    let comparison = try ReportComparison([samples], metric: metric)
    #expect(comparison.lines.count == 1 && comparison.lines[0].test == .welch)
    #expect(abs(comparison.lines[0].difference - 0.08) < 1e-12)
    #expect(comparison.render().contains("random @ 10 B → lru @ 10 B"))
    #expect(comparison.csv().hasPrefix("metric,baseline,candidate,"))
    #expect(throws: FileError.self) {
      try ConfigurationSamples.collect(table, metric: try #require(Metric.named("misses")))
    }
  }
}
