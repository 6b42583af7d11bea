import CacheCore
import Foundation
import Reports
import TestSupport
import Testing

@testable import Gate

/// The files around the gate: the machine record, the speed history, and which baseline
/// headers are accepted.
@Suite struct GateFilesTests {
  @Test func theMachineRecordRoundTripsAndNamesBadLines() throws {
    let here = MachineRecord.current()
    #expect(here.cores >= 1 && !here.cpu.isEmpty && !here.os.isEmpty)
    #expect(here.build == "debug", "the tests run a debug build")
    let folder = Paths.temporaryDirectory("machine").path
    try here.write(into: folder)
    let read = try #require(try MachineRecord.read(from: folder))
    #expect(read == here && read.sameMachine(as: here))
    var elsewhere = here
    elsewhere.cpu = "Another CPU"
    #expect(!elsewhere.sameMachine(as: here))
    var later = here
    later.made = "2030-01-01T00:00:00Z"
    later.commit = "0123"
    #expect(later.sameMachine(as: here), "the date and commit do not make another machine")
    #expect(try MachineRecord.read(from: Paths.temporaryDirectory("none").path) == nil)
    let text = here.render()
    #expect(
      throws: FileError(
        path: "m.txt:3",
        "unknown key 'cpus' (known: \(["made", "commit", "tree", "host", "cpu", "cores", "os", "swift", "build"].joined(separator: ", ")))"
      )
    ) {
      try MachineRecord.parse(text.replacingOccurrences(of: "commit:", with: "cpus:"), path: "m.txt")
    }
    #expect(throws: FileError(path: "m.txt:4", "expected 'key: value', found 'tree \(here.tree)'")) {
      try MachineRecord.parse(text.replacingOccurrences(of: "tree: ", with: "tree "), path: "m.txt")
    }
    #expect(throws: FileError(path: "m.txt", "cores 'two' is not a number")) {
      try MachineRecord.parse(text.replacingOccurrences(of: "cores: \(here.cores)", with: "cores: two"), path: "m.txt")
    }
  }

  @Test func aBaselineFolderInACheckoutRecordsItsCommit() throws {
    let record = MachineRecord.current(checkout: Paths.packageRoot.appendingPathComponent("Reports/baseline").path)
    guard FileManager.default.fileExists(atPath: Paths.packageRoot.appendingPathComponent(".git").path) else {
      #expect(record.commit == "unknown")
      return
    }
    #expect(record.commit.count == 40 && record.commit.allSatisfy(\.isHexDigit), "\(record.commit)")
    #expect(["clean", "modified"].contains(record.tree))
  }

  static func verdict(_ ratios: [(String, Double, Double, Double)]) -> SpeedVerdict {
    let judged = ratios.map {
      SpeedVerdict.Judged(
        label: $0.0, report: $0.0 == "overall" ? "" : "b/p.csv", ratio: $0.1, lower: $0.2, upper: $0.3, rounds: 10,
        candidateSpeed: 9e6, referenceSpeed: 1e7, threshold: $0.0 == "overall" ? 0.9 : 0.75)
    }
    return SpeedVerdict(
      candidate: "new", reference: "old", configurations: Array(judged.dropFirst()), overall: judged[0], unjudged: [],
      fullRounds: 10, confidence: 0.95, seconds: 1)
  }

  @Test func theHistoryGainsRowsAndKeepsOldOnes() throws {
    let path = Paths.temporaryDirectory("history").appendingPathComponent("speed.csv").path
    let machine = MachineRecord.current()
    let first = Self.verdict([("overall", 0.98, 0.95, 1.01), ("lru @ 0.1", 0.7, 0.65, 0.74)])
    try SpeedHistory.append(first, to: path, baseline: "b", machine: machine, commit: "abc")
    try SpeedHistory.append(
      Self.verdict([("overall", 1.01, 0.99, 1.03), ("lru @ 0.1", 1.0, 0.9, 1.1)]), to: path, baseline: "b",
      machine: machine, commit: "def")
    let table = try ReportTable(contentsOf: path)
    #expect(table.header == SpeedHistory.header)
    #expect(table.rows.count == 4)
    #expect(table.rows.map { table.value($0, "commit")! } == ["abc", "abc", "def", "def"])
    #expect(table.rows.map { table.value($0, "configuration")! } == ["overall", "lru @ 0.1", "overall", "lru @ 0.1"])
    #expect(table.value(table.rows[1], "verdict") == "slower" && table.value(table.rows[3], "verdict") == "not slower")
    #expect(table.value(table.rows[1], "ratio_ci95_high") == "0.7400")
    #expect(table.value(table.rows[0], "machine") == machine.summary)
    let other = Paths.temporaryFile("other.csv", text: "a,b\n1,2\n")
    #expect(throws: FileError.self) {
      try SpeedHistory.append(first, to: other, baseline: "b", machine: machine, commit: "x")
    }
    #expect(try String(contentsOfFile: other, encoding: .utf8) == "a,b\n1,2\n", "a foreign file is left alone")
  }

  @Test func olderBaselinesPassHandEditedOnesAreRefused() throws {
    let standard = ReportColumn.standard.map(\.name)
    let older = ReportTable(path: "b.csv", header: Array(standard.dropLast(2)), rows: [])
    #expect(try RegressionCheck.missingColumns(older) == Array(standard.suffix(2)))
    #expect(try RegressionCheck.missingColumns(ReportTable(path: "b.csv", header: standard, rows: [])).isEmpty)
    var gap = standard
    gap.removeAll { $0 == "misses" }
    #expect(throws: FileError.self) {
      try RegressionCheck.missingColumns(ReportTable(path: "b.csv", header: gap, rows: []))
    }
    do {
      _ = try RegressionCheck.missingColumns(ReportTable(path: "b.csv", header: gap, rows: []))
    } catch {
      #expect(error.path == "b.csv:1" && error.message.hasPrefix("missing columns misses;"), "\(error)")
    }
    #expect(throws: FileError(path: "b.csv:1", "unknown column 'note' (not a CacheLab report column)")) {
      try RegressionCheck.missingColumns(ReportTable(path: "b.csv", header: standard + ["note"], rows: []))
    }
  }
}
