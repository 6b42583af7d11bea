import CacheCore
import Engine
import Foundation
import Policies
import Replay
import Reports
import TestSupport
import Testing
import Traces
import Workloads

@Suite struct ReportTests {
  static let required = [
    "trace", "format", "policy", "params", "capacity", "ignore_size", "requests", "request_bytes", "hits", "misses",
    "miss_bytes", "hit_ratio", "byte_hit_ratio", "requests_per_second",
  ]

  static func run() throws -> RunResult {
    let path = Paths.temporaryFile(
      "r.oracleGeneral.bin",
      bytes: SyntheticTraces.oracleGeneral(
        SyntheticTraces.requests(count: 3000, objects: 300, sizes: 10...1000)))
    return try Replayer(
      RunConfiguration(
        tracePath: path, trace: TraceSpec(parsing: "oracle-general"),
        policies: PolicySpec.parseList("lru,clock:bits=2"),
        capacities: CapacitySpec.parseList("0.25,64KiB", objectMode: false))
    ).run()
  }

  @Test func csvHasTheDocumentedColumnsAndOneRowPerCache() throws {
    let result = try Self.run()
    let lines = CSVReport.render([result]).split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    for column in Self.required { #expect(header.contains(column), "missing column \(column)") }
    #expect(header == ReportColumn.standard.map(\.name))
    #expect(lines.count == 1 + 4)
    let row = lines[3].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let value = { (name: String) in row[header.firstIndex(of: name)!] }
    #expect(value("policy") == "clock")
    #expect(value("params") == "bits=2")
    #expect(value("capacity_spec") == "0.25")
    let cache = result.caches[2]
    #expect(value("misses") == String(cache.counters.misses))
    #expect(value("hits") == String(cache.requests - cache.counters.misses))
    #expect(Double(value("hit_ratio")) == (cache.hitRatio * 1e6).rounded() / 1e6)
  }

  @Test func quotingFollowsRFC4180() {
    #expect(CSVReport.quote("plain") == "plain")
    #expect(CSVReport.quote("a,b") == "\"a,b\"")
    #expect(CSVReport.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
  }

  @Test func writeIsAtomic() throws {
    let result = try Self.run()
    let directory = Paths.temporaryDirectory()
    let path = directory.appendingPathComponent("out.csv").path
    try CSVReport.write([result], to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == CSVReport.render([result]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
  }

  @Test func tableListsEveryCache() throws {
    let table = TableReport.render(try Self.run())
    let lines = table.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix("policy"))
    #expect(lines[1].hasPrefix("lru "))
    #expect(lines[3].hasPrefix("clock:bits=2"))
  }

  /// The tables, the metrics and the CSV read one registry: every table column and metric is
  /// a numeric (or displayed) report column, and a table cell is that column's number printed
  /// in its unit.
  @Test func tablesAndMetricsComeFromTheColumnRegistry() throws {
    for name in TableReport.cacheColumns + TableReport.engineColumns {
      #expect(ReportColumn.named(name) != nil, "table column \(name) is not in the registry")
    }
    #expect(Metric.all.map(\.name) == ReportColumn.standard.filter(\.isMetric).map(\.name))
    #expect(Metric.all.allSatisfy { $0.column.unit != nil })
    #expect(Metric.hitRatio.name == "hit_ratio" && Metric.hitRatio.unit == .ratio)
    let run = try Self.run()
    let rows = TableReport.cacheRows(run)
    #expect(rows[0] == ["policy"] + TableReport.cacheColumns.map { ReportColumn.named($0)!.title })
    let first = ReportRow.rows([run])[0]
    let hitRatio = try #require(ReportColumn.named("hit_ratio"))
    #expect(rows[1][2] == hitRatio.cell(of: first))
    #expect(rows[1][2] == Reports.Decimal.fixed(first.hitRatio * 100, 2) + " %")
    #expect(rows[1][4] == String(first.misses))
  }
}

/// The docs stay current: every report column, policy, preset, generator and trace format is
/// documented (the tables themselves are generated: `GeneratedDocsTests`).
@Suite struct ReadmeTests {
  static let readme = DocumentationFiles.combinedText
  static let tracesReadme =
    (try? String(contentsOf: Paths.packageRoot.appendingPathComponent("Traces/README.md"), encoding: .utf8)) ?? ""

  @Test func everyColumnPolicyAndFormatIsDocumented() {
    for column in ReportColumn.standard {
      #expect(Self.readme.contains("| `\(column.name)` |"), "the docs lack column \(column.name)")
    }
    for column in WindowSeries.columns {
      #expect(Self.readme.contains("| `\(column.name)` |"), "the docs lack window-series column \(column.name)")
    }
    for entry in PolicyRegistry.all {
      #expect(Self.readme.contains("| `\(entry.descriptor.name)` |"), "the docs lack policy \(entry.descriptor.name)")
    }
    for preset in EnginePreset.all {
      #expect(Self.readme.contains("| `\(preset.name)` |"), "the docs lack preset \(preset.name)")
    }
    for format in TraceFormat.all {
      #expect(Self.tracesReadme.contains("| `\(format.name)` |"), "Traces/README.md lacks format \(format.name)")
    }
    for generator in GeneratorRegistry.all {
      #expect(
        Self.readme.contains("| `\(generator.descriptor.name)` |"),
        "the docs lack generator \(generator.descriptor.name)")
    }
  }
}
