import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// `cachelab convert` round trips, and `--num-req` / `--sample` on runs.
@Suite struct ConvertTests {
  static let trace = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  static func requests(_ path: String) throws -> [Request] {
    try TraceSpec(format: nil, inferringFrom: path).open(path).collect()
  }

  /// oracle-general → lcs → zstd oracle-general → gzip csv: the same requests, next-access
  /// indices included where the format carries them.
  @Test func roundTripsKeepEveryRequest() throws {
    let folder = Paths.temporaryDirectory("convert")
    let original = try Self.requests(Self.trace)
    var source = Self.trace
    for name in ["t.lcs", "t.oracleGeneral.bin.zst", "t.csv.gz", "t.cachelab.csv.zst", "t.oracleGeneral.bin.xz"] {
      let target = folder.appendingPathComponent(name).path
      let outcome = try CLI.run(["convert", source, target, "--quiet"])
      #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
      let converted = try Self.requests(target)
      #expect(converted.map(\.key) == original.map(\.key), "\(name)")
      #expect(converted.map(\.size) == original.map(\.size), "\(name)")
      #expect(converted.map(\.time) == original.map(\.time), "\(name)")
      if !name.contains(".csv") { #expect(converted.map(\.nextAccess) == original.map(\.nextAccess), "\(name)") }
      source = target
    }
  }

  /// The cachelab output keeps puts, deletes, TTLs and events: CacheLib's TTL sample and a
  /// trace with lifecycle events read back row for row and replay the same with `--ttl`.
  @Test func cachelabOutputKeepsEveryRowAndItsAttributes() throws {
    let folder = Paths.temporaryDirectory("convert")
    var sources = [Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path]
    if Paths.sharedTraceAvailable("cachelib/kv_traces_2.csv") {
      sources.append(Paths.sharedTrace("cachelib/kv_traces_2.csv"))
    }
    for source in sources {
      let target = folder.appendingPathComponent("k.cachelab.csv").path
      let outcome = try CLI.run(["convert", source, target])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(outcome.stdout.contains("other rows"), "\(outcome.stdout)")
      let reader = try TraceSpec(format: nil, inferringFrom: source).open(source)
      let copy = try TraceSpec(format: nil, inferringFrom: target).open(target)
      let (a, b) = (RequestBatch(), RequestBatch())
      var rows = 0
      while try reader.read(into: a) {
        #expect(try copy.read(into: b))
        #expect(a.count == b.count)
        for index in 0..<min(a.count, b.count) {
          #expect(a[index].key == b[index].key || a[index].operation == .event)
          #expect(a[index].time == b[index].time && a[index].operation == b[index].operation)
          #expect(a[index].size == b[index].size || a[index].operation == .event)
          #expect(
            a.attributes(index).ttl == b.attributes(index).ttl && a.attributes(index).event == b.attributes(index).event
          )
        }
        rows += a.count
      }
      #expect(try !copy.read(into: b) && rows > 90)
      do {
        let arguments = ["--policies", "lru,s3fifo", "--sizes", "10,100", "--ignore-size", "--ttl", "1s"]
        let runs = try [source, target].map { path in
          try CLI.run(["run", "--trace", path, "--output", "-"] + arguments).stdout.split(separator: "\n").dropFirst()
            .map {
              $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).prefix(22).joined(separator: ",")
            }
        }
        #expect(runs[0] == runs[1] && !runs[0].isEmpty, "\(source) \(arguments)")
      }
    }
  }

  @Test func slicesSamplesAndObjectMode() throws {
    let folder = Paths.temporaryDirectory("convert")
    let original = try Self.requests(Self.trace)
    let first = folder.appendingPathComponent("first.txt").path
    #expect(try CLI.run(["convert", Self.trace, first, "--num-req", "500", "--quiet"]).status == 0)
    #expect(try Self.requests(first).map(\.key) == original.prefix(500).map(\.key))
    let sampled = folder.appendingPathComponent("s.oracleGeneral.bin").path
    #expect(try CLI.run(["convert", Self.trace, sampled, "--sample", "0.1", "--ignore-size", "--quiet"]).status == 0)
    let kept = try Self.requests(sampled)
    let slice = TraceSlice(sampleRate: 0.1)
    #expect(kept.map(\.key) == original.filter { slice.samples($0.key) }.map(\.key))
    #expect(kept.allSatisfy { $0.size == 1 } && kept.count > 4000 && kept.count < 12000)
    let bad = try CLI.run(["convert", Self.trace, folder.appendingPathComponent("x.unknown").path])
    #expect(bad.status == 64 && bad.stderr.contains("cannot tell the output format"))
  }

  /// `--num-req` replays a prefix; `--sample` keeps a spatial sample, scales absolute sizes
  /// and records the rate in the report.
  @Test func runsOnASlice() throws {
    let prefix = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru", "--sizes", "1MiB", "--num-req", "1000", "--output", "-",
    ])
    #expect(prefix.status == 0)
    let rows = prefix.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = rows[0].map(String.init)
    let value = { (name: String) in String(rows[1][header.firstIndex(of: name)!]) }
    #expect(value("requests") == "1000" && value("num_req") == "1000" && value("sample_rate") == "1.000000")
    #expect(Int64(value("peak_memory_bytes"))! > 0)
    let sampled = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru", "--sizes", "10MiB", "--sample", "0.5", "--output", "-",
    ])
    let sampledRows = sampled.stdout.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let sampledValue = { (name: String) in String(sampledRows[1][header.firstIndex(of: name)!]) }
    #expect(sampledValue("capacity") == String(5 * 1_048_576) && sampledValue("sample_rate") == "0.500000")
    // Counts are scaled back to the whole trace (SHARDS-adj): all 80,000 requests, estimated misses.
    #expect(sampledValue("requests") == "80000")
    let exact = try CLI.run(["run", "--trace", Self.trace, "--policies", "lru", "--sizes", "10MiB", "--output", "-"])
    let exactRows = exact.stdout.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let exactRatio = Double(String(exactRows[1][header.firstIndex(of: "miss_ratio")!]))!
    #expect(abs(Double(sampledValue("miss_ratio"))! - exactRatio) < 0.03)
    let approx = try CLI.run([
      "sweep", "--trace", Self.trace, "--policies", "lru", "--sizes", "10MiB", "--approx", "--output", "-",
    ])
    #expect(approx.status == 0 && approx.stdout.contains(",0.010000,"), "\(approx.stdout)")
  }

  /// `--sample Nobj` runs at the rate the fixed-size pre-pass finds, as `--sample RATE` would.
  @Test func aFixedSizeSampleRunsAtItsRate() throws {
    func rows(_ sample: String) throws -> [[String]] {
      let outcome = try CLI.run(
        [
          "run", "--trace", Self.trace, "--policies", "lru,arc", "--sizes", "64MiB", "--sample", sample, "--output",
          "-",
        ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      return outcome.stdout.split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      }
    }
    let fixed = try rows("500obj")
    let header = try #require(fixed.first)
    let rateColumn = try #require(header.firstIndex(of: "sample_rate"))
    let rate = try #require(Double(fixed[1][rateColumn]))
    #expect(rate > 0 && rate < 1 && fixed[1][rateColumn].count > 8, "every digit of a 2^-24 multiple")
    let byRate = try rows(String(rate))
    let deterministic = ["policy", "capacity", "requests", "misses", "miss_bytes", "sample_rate"].compactMap {
      header.firstIndex(of: $0)
    }
    #expect(
      fixed.dropFirst().map { row in deterministic.map { row[$0] } }
        == byRate.dropFirst().map { row in deterministic.map { row[$0] } })
    let bad = try CLI.run(["run", "--trace", Self.trace, "--policies", "lru", "--sizes", "1MiB", "--sample", "0obj"])
    #expect(bad.status == 64 && bad.stderr.contains("--sample must be"))
  }
}
