import CacheCore
import Foundation
import TestSupport
import Testing

@testable import Traces

/// The two-stage HTTP log reader: however the lines fall into blocks, it delivers what one
/// pass over the lines in order would, and a bad line stops it at that line.
@Suite struct HTTPLineReaderTests {
  /// A combined log of `count` lines: a few URLs revisited, some with escapes, some 304s and
  /// POSTs, an occasional blank line, and every 97th line a long query.
  static func log(_ count: Int, seed: UInt64 = 7) -> String {
    var random = SplitMix64(seed: seed)
    var lines: [String] = []
    for index in 0..<count {
      let url = random.next() % 500
      let second = 10 + index / 50
      let method = random.next() % 20 == 0 ? "POST" : "GET"
      let status = random.next() % 7 == 0 ? 304 : 200
      let query = index % 97 == 0 ? "?" + String(repeating: "q", count: 300 + index % 50) : ""
      let agent = index % 5 == 0 ? #"agent \"quoted\""# : "curl/8"
      lines.append(
        "10.0.0.\(index % 9) - - [10/Oct/2000:13:\(Self.twoDigits(second / 60 % 60)):\(Self.twoDigits(second % 60)) -0700] "
          + "\"\(method) /o\(url).png\(query) HTTP/1.1\" \(status) \(100 + url * 7) \"-\" \"\(agent)\"")
      if index % 333 == 0 { lines.append("") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  struct Read: Equatable {
    var requests: [Request] = []
    var attributes: [RequestAttributes] = []
    var notes: String?
  }

  static func parameters(_ text: String = "") throws -> Parameters {
    try Parameters(parsing: text, specs: TraceFormat.accessLog.parameters, owner: "access-log")
  }

  static func read(_ path: String, blockLines: Int, blockBytes: Int) throws -> Read {
    let reader = try HTTPLineReader(
      path: path, parser: AccessLogParser(parameters: try Self.parameters()), blockLines: blockLines,
      blockBytes: blockBytes)
    var result = Read()
    let batch = RequestBatch(capacity: 1_000)
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        result.requests.append(batch[index])
        result.attributes.append(batch.attributes(index))
      }
    }
    result.notes = reader.notes
    return result
  }

  @Test func blocksOfAnySizeGiveTheSameRequests() throws {
    let path = try Paths.temporaryFile("blocks.access.log", text: Self.log(12_000))
    let whole = try Self.read(path, blockLines: 4_096, blockBytes: 1 << 20)
    #expect(whole.requests.count > 11_000)
    #expect(whole.notes?.contains("POST/PUT/PATCH/DELETE invalidations") == true)
    // Blocks of one line, of a few lines, and of fewer bytes than most lines (each grows).
    for (lines, bytes) in [(1, 1 << 20), (7, 1 << 20), (4_096, 100), (3, 256)] {
      let read = try Self.read(path, blockLines: lines, blockBytes: bytes)
      #expect(read == whole, "blocks of \(lines) lines, \(bytes) bytes")
    }
  }

  @Test func aBadLineStopsTheReadAtItsLineAfterTheLinesBeforeIt() throws {
    var text = Self.log(9_000)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let bad = 8_500
    text = lines.enumerated().map { $0.offset == bad - 1 ? "not a log line" : String($0.element) }
      .joined(separator: "\n")
    let path = try Paths.temporaryFile("bad.access.log", text: text)
    for (blockLines, blockBytes) in [(4_096, 1 << 20), (5, 1 << 20)] {
      let reader = try HTTPLineReader(
        path: path, parser: AccessLogParser(parameters: try Self.parameters("log-format=combined")),
        blockLines: blockLines, blockBytes: blockBytes)
      let batch = RequestBatch(capacity: 100)
      var delivered = 0
      let error = #expect(throws: TraceError.self) {
        while try reader.read(into: batch) { delivered += batch.count }
      }
      #expect(error?.description.contains("bad.access.log:\(bad):") == true, "\(String(describing: error))")
      // Every line before the bad one was delivered (the last batch is lost with the throw).
      #expect(delivered > 8_000)
    }
  }

  @Test func aReaderLeftBeforeTheEndStopsItsThread() throws {
    let path = try Paths.temporaryFile("left.access.log", text: Self.log(20_000))
    for _ in 0..<20 {
      let reader = try HTTPLineReader(
        path: path, parser: AccessLogParser(parameters: try Self.parameters()), blockLines: 64, blockBytes: 4_096)
      let batch = RequestBatch(capacity: 10)
      #expect(try reader.read(into: batch))
      #expect(batch.count == 10)
    }
  }
}
