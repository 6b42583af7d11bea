import Foundation
import Reports
import Synchronization
import TestSupport
import Testing

/// An access log run end to end: the header states what reading skipped, the table is followed
/// by what the log's own cache did, and the CSV carries the observed columns.
@Suite struct HTTPLogRunTests {
  static let log: String = {
    // 300 requests over 12 URLs, one second apart; nginx's cache status says HIT for every
    // request of a URL after its first, which an unbounded LRU reproduces exactly.
    var lines: [String] = []
    var seen: Set<Int> = []
    for index in 0..<300 {
      let url = (index * 7) % 12
      let status = seen.insert(url).inserted ? "MISS" : "HIT"
      lines.append(
        "\(1_700_000_000 + index).000 \"GET /o/\(url).js HTTP/1.1\" 200 \(1000 + url) \"max-age=3600\" \(status)")
    }
    lines.append("1700000300.000 \"OPTIONS * HTTP/1.1\" 204 0 \"-\" -")
    return lines.joined(separator: "\n") + "\n"
  }()

  static let format =
    "access-log:log-format='$msec \"$request\" $status $body_bytes_sent \"$sent_http_cache_control\" $upstream_cache_status'"

  @Test func observedOutcomeStandsBesideTheSimulatedOne() throws {
    let scratch = FaultCases3OutputTests.Scratch()
    let trace = scratch.file("edge.log", Self.log)
    let csv = scratch.path + "/out.csv"
    let outcome = try CLI.run([
      "run", "--trace", trace, "--format", Self.format, "--policies", "lru", "--sizes", "1MiB", "--output", csv,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("read: 1 skipped (1 OPTIONS)"), "\(outcome.stdout)")
    #expect(
      outcome.stdout.contains(
        "observed: the trace's own cache served 96.00 % (288 of the 300 requests whose record says)"),
      "\(outcome.stdout)")
    let table = try ReportTable(contentsOf: csv)
    let row = try #require(table.rows.first)
    #expect(table.value(row, "hits") == "288")
    #expect(table.value(row, "observed_hits") == "288")
    #expect(table.value(row, "observed_hit_ratio") == "0.960000")
    #expect(table.value(row, "observed_client_hits") == "0")
  }

  /// A trace without outcomes leaves the observed columns empty.
  @Test func tracesWithoutOutcomesLeaveTheColumnsEmpty() throws {
    let scratch = FaultCases3OutputTests.Scratch()
    let trace = scratch.file("t.csv", "time,key,size\n1,a,10\n2,a,10\n")
    let csv = scratch.path + "/out.csv"
    let outcome = try CLI.run(["run", "--trace", trace, "--policies", "lru", "--sizes", "1MiB", "--output", csv])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(!outcome.stdout.contains("observed:"))
    let table = try ReportTable(contentsOf: csv)
    let row = try #require(table.rows.first)
    #expect(table.value(row, "observed_hits") == "")
    #expect(table.value(row, "observed_hit_ratio") == "")
  }

  /// A log piped in from a writer that keeps it open (`tail -f log | cachelab … --num-req N`):
  /// the run ends once it has its N requests, though the line parser's thread is still
  /// waiting for more input.
  @Test func aLivePipeEndsTheRunAtItsRequestLimit() throws {
    let scratch = FaultCases3OutputTests.Scratch()
    let csv = scratch.path + "/out.csv"
    // More lines than a replay batch (65,536 requests) and the 60 s reorder window, one second
    // apart: the limit is reached before the lines run out, and the writer keeps the pipe open.
    var text = ""
    for index in 0..<70_000 {
      text += "\(1_700_000_000 + index).000 \"GET /o/\(index % 50).js HTTP/1.1\" 200 1000 \"max-age=60\" MISS\n"
    }
    let pipe = Pipe()
    let writer = pipe.fileHandleForWriting
    let lines = Data(text.utf8)
    DispatchQueue.global().async { writer.write(lines) }
    // A generous bound closes the pipe only if the run waits for its end.
    let closed = Mutex(false)
    let closer = DispatchWorkItem {
      closed.withLock { $0 = true }
      try? writer.close()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: closer)
    let outcome = try ChildProcess.run(
      CLI.binary,
      [
        "run", "--trace", "-", "--format", Self.format, "--policies", "lru", "--sizes", "1MiB", "--num-req", "100",
        "--output", csv,
      ],
      inputFile: pipe.fileHandleForReading)
    let closedFirst = closed.withLock { $0 }
    closer.cancel()
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(!closedFirst, "the run waited for its input to end")
    let table = try ReportTable(contentsOf: csv)
    let row = try #require(table.rows.first)
    #expect(table.value(row, "requests") == "100")
  }
}
