import CacheCore
import Foundation
import Policies
import Replay
import Reports
import TestSupport
import Testing
import Traces

/// Per-window hit ratios, sharded grids and their merge.
@Suite struct WindowAndShardTests {
  static let requests = SyntheticTraces.requests(count: 10_000, objects: 1_500, sizes: 100...5_000, seed: 11)
  static let tracePath = Paths.temporaryFile(
    "windows.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
  /// The same requests as CSV with one request every 0.25 s of trace time.
  static let csvPath: String = {
    var text = "time,key,size\n"
    for (index, request) in requests.enumerated() { text += "\(Double(index) * 0.25),\(request.key),\(request.size)\n" }
    return Paths.temporaryFile("windows.csv", text: text)
  }()

  static func configuration(
    path: String = tracePath, format: String = "oracle-general", window: WindowSpec? = nil, warmup: WarmupSpec = .none,
    batch: Int = 1 << 16, shard: Shard? = nil, policies: String = "lru,sieve,s3fifo", sizes: String = "0.05,0.2"
  ) throws -> RunConfiguration {
    RunConfiguration(
      tracePath: path, trace: try TraceSpec(parsing: format), policies: try PolicySpec.parseList(policies),
      capacities: try CapacitySpec.parseList(sizes, objectMode: false), warmup: warmup, parallel: true,
      batchSize: batch, window: window, shard: shard)
  }

  @Test func requestWindowsPartitionTheCountedRequests() throws {
    let plain = try Replayer(Self.configuration()).run()
    for batch in [1 << 16, 333, 1] {
      let run = try Replayer(Self.configuration(window: .requests(1_000), batch: batch)).run()
      #expect(run.windows.count == 10, "batch \(batch)")
      #expect(run.windows.allSatisfy { $0.requests == 1_000 })
      #expect(run.windows.map(\.firstRequest) == (0..<10).map { Int64($0) * 1_000 })
      for (index, cache) in plain.caches.enumerated() {
        #expect(run.windows.reduce(0) { $0 + $1.hits[index] } == cache.hits, "batch \(batch) cache \(index)")
        #expect(run.caches[index].counters == cache.counters, "windows do not change the results")
      }
    }
  }

  @Test func windowsStartAfterTheWarmUp() throws {
    let run = try Replayer(Self.configuration(window: .requests(3_000), warmup: .fraction(0.25), batch: 777)).run()
    #expect(run.warmupRequests == 2_500)
    #expect(run.windows.map(\.requests) == [3_000, 3_000, 1_500])
    #expect(run.windows[0].firstRequest == 2_500)
    for (index, cache) in run.caches.enumerated() {
      #expect(run.windows.reduce(0) { $0 + $1.hits[index] } == cache.hits)
    }
  }

  /// 10 000 requests 0.25 s apart span 2 499.75 s: 600 s windows hold 2 400 requests each
  /// and the last one 400.
  @Test func timeWindowsFollowTraceTime() throws {
    let run = try Replayer(Self.configuration(path: Self.csvPath, format: "csv", window: .traceTime(600_000_000)))
      .run()
    #expect(run.windows.map(\.requests) == [2_400, 2_400, 2_400, 2_400, 400])
    #expect(run.windows.map(\.startTime) == [0, 600, 1200, 1800, 2400].map { Int64($0) * 1_000_000 })
    let hitRatios = run.windowHitRatios(0)
    #expect(hitRatios.count == 5 && hitRatios.allSatisfy { $0 > 0 && $0 < 1 })
  }

  @Test func windowSpecParsing() throws {
    #expect(try WindowSpec(parsing: "100000r") == .requests(100_000))
    #expect(try WindowSpec(parsing: "5000requests") == .requests(5_000))
    #expect(try WindowSpec(parsing: "1h") == .traceTime(3_600_000_000))
    #expect(try WindowSpec(parsing: "90s").description == "90s")
    for bad in ["0r", "-5r", "10", "abc", "0s"] {
      #expect(throws: ConfigurationError.self, "\(bad)") { try WindowSpec(parsing: bad) }
    }
  }

  @Test func logSpacedSizes() throws {
    let fractions = try CapacitySpec.parseList("log:0.001:0.1:3", objectMode: false)
    #expect(fractions == [.fraction(0.001), .fraction(0.01), .fraction(0.1)])
    let bytes = try CapacitySpec.parseList("log:1KiB:1MiB:4,5", objectMode: false)
    // 1 KiB × 1024^(k/3): 1024, 10 321, 104 032, 1 048 576.
    #expect(bytes == [.absolute(1024), .absolute(10_321), .absolute(104_032), .absolute(1_048_576), .absolute(5)])
    for bad in ["log:0.1:0.01:3", "log:1KiB:0.5:3", "log:1:2", "log:1:2:1"] {
      #expect(throws: ConfigurationError.self, "\(bad)") { try CapacitySpec.parseList(bad, objectMode: false) }
    }
  }

  @Test func shardParsing() throws {
    #expect(try Shard(parsing: "2/5") == Shard(index: 2, count: 5))
    for bad in ["5/5", "-1/3", "1/0", "1", "a/b"] {
      #expect(throws: ConfigurationError.self, "\(bad)") { try Shard(parsing: bad) }
    }
  }

  /// The shards' reports, merged, equal the unsharded report byte for byte once the timing
  /// columns are left out; a missing shard is an error.
  @Test func shardsMergeIntoTheUnshardedReport() throws {
    let columns = ReportColumn.standard.filter { !$0.isTiming }
    let whole = CSVReport.render([try Replayer(Self.configuration()).run()], columns: columns)
    var tables: [ReportTable] = []
    for index in [2, 0, 3, 1] {
      let run = try Replayer(Self.configuration(shard: Shard(index: index, count: 4))).run()
      #expect(run.caches.allSatisfy { $0.cell % 4 == index })
      tables.append(try ReportTable(path: "shard\(index)", text: CSVReport.render([run], columns: columns)))
    }
    #expect(try ReportMerge.merge(tables).render() == whole)
    #expect(throws: FileError.self) { try ReportMerge.merge(Array(tables.dropLast())) }
    #expect(throws: FileError.self) { try ReportMerge.merge(tables + [tables[0]]) }
  }

  @Test func reportTablesReadBackWhatWasWritten() throws {
    let text = "a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,,\"two\nlines\"\n"
    let table = try ReportTable(path: "t.csv", text: text)
    #expect(table.header == ["a", "b", "c"])
    #expect(table.rows == [["1", "x, y", "say \"hi\""], ["2", "", "two\nlines"]])
    #expect(table.render() == text)
    #expect(throws: FileError(path: "t.csv:3", "expected 3 fields as in the header, found 2")) {
      try ReportTable(path: "t.csv", text: "a,b,c\n1,2,3\n4,5\n")
    }
    #expect(throws: FileError(path: "t.csv:2", "unterminated quoted field")) {
      try ReportTable(path: "t.csv", text: "a,b\n1,\"2\n")
    }
  }
}
