import Foundation
import TestSupport
import Testing

/// CSV on standard output, JSON rows, JUnit from `regress`, and a baseline made in one
/// command that runs from any directory.
@Suite(.serialized) struct MachineOutputTests {
  static let trace = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  @Test func csvToStandardOutputAndJSONHoldTheSameRows() throws {
    let folder = Paths.temporaryDirectory("machine")
    let csv = folder.appendingPathComponent("r.csv").path
    let json = folder.appendingPathComponent("r.json").path
    let base = ["run", "--trace", Self.trace, "--policies", "lru,sieve", "--sizes", "0.05,0.1"]
    let piped = try CLI.run(base + ["--output", "-"])
    #expect(piped.status == 0)
    #expect(piped.stdout.hasPrefix("trace,format,policy,"), "only the CSV on standard output")
    #expect(try CLI.run(base + ["--output", csv, "--json", json, "--quiet"]).status == 0)
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]])
    let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
    #expect(rows.count == lines.count - 1 && rows.count == 4)
    let header = lines[0].split(separator: ",").map(String.init)
    #expect(Array(rows[0].keys).count == header.count)
    #expect(rows[0]["policy"] as? String == "lru")
    let first = lines[1].split(separator: ",", omittingEmptySubsequences: false)
    #expect((rows[0]["misses"] as? NSNumber)?.int64Value == Int64(first[header.firstIndex(of: "misses") ?? 0]))
    #expect(rows[0]["ignore_size"] as? Bool == false)
    let jsonByName = folder.appendingPathComponent("named.json").path
    #expect(try CLI.run(base + ["--output", jsonByName, "--quiet"]).status == 0)
    #expect(try String(contentsOfFile: jsonByName, encoding: .utf8).hasPrefix("[\n  {"))
  }

  @Test func regressCreatesABaselineThatRunsFromAnyDirectoryAndWritesJUnit() throws {
    let folder = Paths.temporaryDirectory("gate")
    let baseline = folder.appendingPathComponent("ci/baseline").path
    let created = try CLI.run([
      "regress", "--create", baseline, "--trace", Self.trace, "--policies", "lru,sieve", "--sizes", "0.05", "--repeat",
      "2",
      "--quiet",
    ])
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.contains("wrote \(baseline)/baseline.csv: 4 rows from 2 runs"))
    let junit = folder.appendingPathComponent("junit.xml").path
    let checked = try CLI.run(["regress", "--baseline", baseline, "--junit", junit, "--no-speed"])
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    // A case for the results, one per configuration's speed and one for the overall speed
    // (skipped with --no-speed).
    #expect(xml.contains("tests=\"4\" failures=\"0\" skipped=\"3\""), "\(xml)")
    #expect(xml.contains("lru @ 0.05\"><skipped message=\"--no-speed\"/>"), "\(xml)")
    // A changed value fails, is named in the JUnit report, and passes within a ratio tolerance.
    let report = baseline + "/baseline.csv"
    var text = try String(contentsOfFile: report, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    let column = try #require(header.firstIndex(of: "hit_ratio"))
    var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[column] = String(format: "%.6f", (Double(fields[column]) ?? 0) + 0.004)
    text = ([lines[0], fields.joined(separator: ",")] + lines.dropFirst(2)).joined(separator: "\n") + "\n"
    try text.write(toFile: report, atomically: true, encoding: .utf8)
    let failed = try CLI.run(["regress", "--baseline", baseline, "--junit", junit, "--no-speed"])
    #expect(failed.status == 1)
    #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<failure message=\"1 values changed"))
    let tolerated = try CLI.run(["regress", "--baseline", baseline, "--no-speed", "--hit-ratio-tolerance", "0.01"])
    #expect(tolerated.status == 0, "\(tolerated.stdout)")
  }

  @Test func regressNeedsExactlyOneOfBaselineAndCreate() throws {
    #expect(try CLI.run(["regress"]).status == 64)
    #expect(try CLI.run(["regress", "--create", "x"]).status == 64)
  }
}

extension MachineOutputTests {
  @Test func aTraceOnStandardInputNeedsAbsoluteSizes() throws {
    let rows = "time,key,size\n1,2,3\n2,3,4\n3,2,3\n"
    let piped = try CLI.run(
      ["run", "--trace", "-", "--format", "csv", "--policies", "lru", "--sizes", "1MiB", "--output", "-"], input: rows)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.contains("\n-,csv,lru,,1048576,1048576,false,0,,1.000000,0,3,10,1,2,7,"), "\(piped.stdout)")
    let fraction = try CLI.run(
      ["run", "--trace", "-", "--format", "csv", "--policies", "lru", "--sizes", "0.5"], input: rows)
    #expect(fraction.status == 64)
    #expect(fraction.stderr.contains("standard input can be read only once"))
  }
}
