import CacheCore
import Engine
import Foundation
import Policies
import Replay
import Reports
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
        LabeledEngine(label: "preset:\($0)", configuration: try PresetSpec(parsing: $0).configuration)
      }, window: .requests(2_000))
    let runs = [try Replayer(configuration).run()]
    let directory = Paths.temporaryDirectory("report").path
    let files = try ReportDirectory.write(runs, to: directory + "/nested")
    #expect(
      Set(files) == ["report.csv", "miss-ratio.svg", "hit-ratio-over-time.svg", "latency-cdf.svg", "README.md"])
    for chart in files where chart.hasSuffix(".svg") {
      let parsed = try Self.parseXML(directory + "/nested/" + chart)
      #expect(parsed.root == "svg", "\(chart)")
      #expect(parsed.elements > 20, "\(chart) has axes, lines and a legend")
    }
    let curve = try String(contentsOfFile: directory + "/nested/miss-ratio.svg", encoding: .utf8)
    #expect(curve.contains(">lru<") && curve.contains(">sieve<") && curve.contains("<polyline"))
    let markdown = try String(contentsOfFile: directory + "/nested/README.md", encoding: .utf8)
    #expect(markdown.contains("![Miss ratio curve") && markdown.contains("(latency-cdf.svg)"))
    #expect(markdown.contains("| lru @ 0.01 | 5 windows |"), "windowed runs show n and the interval")
    let csv = try String(contentsOfFile: directory + "/nested/report.csv", encoding: .utf8)
    #expect(csv == CSVReport.render(runs))
  }

  @Test func chartsEscapeTextAndHandleNoData() throws {
    let chart = SVGChart(title: "a < b & \"c\"", xLabel: "x", yLabel: "y", series: [])
    let path = Paths.temporaryFile("empty.svg", text: chart.render())
    #expect(try Self.parseXML(path).root == "svg")
    #expect(SVGChart.ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    #expect(SVGChart.bytes(1_572_864) == "1.5 MiB" && SVGChart.compact(2_500) == "2.5k")
  }

  /// Repeated rows are the samples of a configuration; a windowed row gives its windows.
  @Test func statisticsGroupRowsByConfiguration() throws {
    let text = """
      trace,format,policy,params,capacity,ignore_size,warmup,window,seed,hit_ratio,windows,window_hit_ratio_mean,window_hit_ratio_sd
      t,csv,random,,10,false,0,,0,0.50,,,
      t,csv,random,,10,false,0,,1,0.52,,,
      t,csv,random,,10,false,0,,2,0.54,,,
      t,csv,lru,,10,false,0,100r,0,0.60,4,0.60,0.02

      """
    let table = try ReportTable(path: "s.csv", text: text)
    let groups = ReportStatistics.groups(table)
    #expect(groups.map(\.label) == ["random @ 10", "lru @ 10"])
    let (random, kind) = try #require(ReportStatistics.summary(groups[0], "hit_ratio", in: table))
    #expect(kind == .repeats && random.count == 3 && abs(random.mean - 0.52) < 1e-12)
    let (lru, lruKind) = try #require(ReportStatistics.summary(groups[1], "hit_ratio", in: table))
    #expect(lruKind == .windows && lru.count == 4 && lru.standardDeviation == 0.02)
    let comparison = try ReportComparison([table], metric: "hit_ratio")
    #expect(comparison.lines.count == 1)
    #expect(abs(comparison.lines[0].test.difference - 0.08) < 1e-12)
    #expect(comparison.render().contains("random @ 10 → lru @ 10"))
    #expect(comparison.csv().hasPrefix("metric,baseline,candidate,"))
    #expect(throws: FileError.self) { try ReportComparison([table], metric: "nope") }
  }
}
