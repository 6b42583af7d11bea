import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a ``ChunkedFile`` into lines without copying: each line is a view into the
/// file buffer, valid until the next call. A final line without a newline counts; a
/// trailing `\r` is dropped (CRLF files); a file whose first block holds `\r` but no `\n`
/// has classic Mac line ends and is split at `\r`.
final class LineReader {
  let file: ChunkedFile
  /// The byte that ends a line: `\n`, or `\r` in a file with CR-only line ends.
  private var terminator: Int32 = 0x0A
  private var terminatorKnown = false
  /// 1-based number of the line last returned.
  private(set) var lineNumber: Int64 = 0
  /// Buffer offset where the line last returned starts, for ``pushBack()``.
  private var lastLineStart = -1

  init(path: String) throws(TraceError) {
    file = try ChunkedFile(path: path)
  }

  var path: String { file.path }

  /// The next line, or nil at the end of the file.
  func nextLine() throws(TraceError) -> UnsafeRawBufferPointer? {
    if !terminatorKnown { try chooseTerminator() }
    while true {
      let start = file.cursor
      let available = file.available
      if available > 0, let newline = memchr(start, terminator, available) {
        let length = UnsafeRawPointer(newline) - start
        lastLineStart = file.start
        file.start += length + 1
        lineNumber += 1
        return Self.trimCarriageReturn(UnsafeRawBufferPointer(start: start, count: length))
      }
      do {
        if try file.refill() { continue }
      } catch {
        throw error.located(at: lineNumber + 1)
      }
      guard file.available > 0 else { return nil }
      // Last line, no newline at the end of the file.
      let line = UnsafeRawBufferPointer(start: file.cursor, count: file.available)
      lastLineStart = file.start
      file.start += file.available
      lineNumber += 1
      return Self.trimCarriageReturn(line)
    }
  }

  /// Looks at the first 64 KiB (or the whole input when shorter; a pipe may deliver less at a
  /// time): `\r` without any `\n` means CR-only line ends.
  private func chooseTerminator() throws(TraceError) {
    terminatorKnown = true
    while file.available < 1 << 16, memchr(file.cursor, 0x0A, file.available) == nil {
      do {
        guard try file.refill() else { break }
      } catch {
        throw error.located(at: 1)
      }
    }
    let available = file.available
    guard available > 0, memchr(file.cursor, 0x0A, available) == nil, memchr(file.cursor, 0x0D, available) != nil
    else { return }
    terminator = 0x0D
  }

  /// Makes the line last returned the next one again. Only valid right after ``nextLine()``.
  func pushBack() {
    precondition(lastLineStart >= 0, "pushBack without a preceding nextLine")
    file.start = lastLineStart
    lastLineStart = -1
    lineNumber -= 1
  }

  private static func trimCarriageReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    guard let last = line.last, last == 0x0D else { return line }
    return UnsafeRawBufferPointer(rebasing: line.dropLast())
  }
}

/// Parses the lines of one text format.
protocol LineParser {
  /// What the parsed requests carry.
  var traits: TraceTraits { get }
  /// Called once before the first ``parse(_:into:)`` (e.g. to read a header); a line it
  /// reads but does not consume must be pushed back.
  mutating func begin(_ lines: LineReader) throws(TraceError)
  /// Parses `line` into `request`. Returns false for a line that holds no request
  /// (header, blank line, marker); throws a message for a malformed line.
  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool
  /// Whether the parser fills `RequestAttributes` (rich formats).
  var producesAttributes: Bool { get }
  /// What parsing changed or left out, for ``TraceReader/notes``.
  var notes: String? { get }
  /// The URL text behind each key, for HTTP logs.
  var trafficBook: TrafficBook? { get }
  /// How much the key grows from one repeat of a line's request to the next: 0 repeats the
  /// same object (`op_count`), 1 walks consecutive blocks (block-range traces).
  var repeatKeyStep: UInt64 { get }
  /// Whether a line can stand for several requests (otherwise the reader takes a faster
  /// path: one request per line, no attributes).
  var linesRepeat: Bool { get }
  /// Parses `line` into `request` and `attributes`; returns how many times the request
  /// repeats (0 for a line without a request). The default calls ``parse(_:into:)``.
  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int
}

extension LineParser {
  mutating func begin(_ lines: LineReader) throws(TraceError) {}

  var producesAttributes: Bool { false }

  var notes: String? { nil }

  var trafficBook: TrafficBook? { nil }

  var repeatKeyStep: UInt64 { 0 }

  var linesRepeat: Bool { false }

  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int {
    try parse(line, into: &request) ? 1 : 0
  }
}

/// A parser that implements only the counting form of ``LineParser/parse(_:into:attributes:)``
/// (lines that stand for several requests, or carry attributes); the plain form follows.
protocol CountingLineParser: LineParser {}

extension CountingLineParser {
  var linesRepeat: Bool { true }

  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool {
    var ignored = RequestAttributes()
    return try parse(line, into: &request, attributes: &ignored) > 0
  }
}

/// Why a line does not parse.
struct LineError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// A streaming reader for line-oriented text formats.
final class LineRecordReader<Parser: LineParser>: TraceReader {
  private let lines: LineReader
  private var parser: Parser
  private(set) var requestsRead: Int64 = 0
  private var budget = ByteBudget()

  init(path: String, parser: Parser) throws(TraceError) {
    lines = try LineReader(path: path)
    self.parser = parser
    try self.parser.begin(lines)
  }

  var path: String { lines.path }
  var traits: TraceTraits { parser.traits }
  var knownRequestCount: Int64? { nil }
  var notes: String? { parser.notes }
  var trafficBook: TrafficBook? { parser.trafficBook }

  /// A request still to be repeated (`op_count`) when the last batch filled up.
  private var pending: (request: Request, attributes: RequestAttributes, remaining: Int)?

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    if !parser.producesAttributes && !parser.linesRepeat { return try readPlain(into: batch) }
    let attributes: UnsafeMutableBufferPointer<RequestAttributes>?
    if parser.producesAttributes {
      attributes = batch.attributesForWriting()
    } else {
      attributes = nil
      batch.clearAttributes()
    }
    try batch.refill { (requests: UnsafeMutableBufferPointer<Request>) throws(TraceError) -> Int in
      var filled = 0
      let step = parser.repeatKeyStep
      /// Emits `count` copies (keys advancing by `step`); returns how many did not fit, with
      /// `request` advanced to the first of them.
      func emit(_ request: inout Request, _ attribute: RequestAttributes, _ count: Int) -> Int {
        let room = min(count, requests.count - filled)
        for _ in 0..<room {
          requests[filled] = request
          attributes?[filled] = attribute
          filled += 1
          request.key &+= step
        }
        requestsRead += Int64(room)
        return count - room
      }
      if var waiting = pending {
        let left = emit(&waiting.request, waiting.attributes, waiting.remaining)
        pending = left > 0 ? (waiting.request, waiting.attributes, left) : nil
      }
      var request = Request(key: 0)
      var attribute = RequestAttributes()
      while pending == nil, filled < requests.count, let line = try lines.nextLine() {
        attribute = RequestAttributes()
        let repeats: Int
        do throws(LineError) {
          repeats = try parser.parse(line, into: &request, attributes: &attribute)
        } catch {
          throw TraceError(.malformedRecord, path: path, record: lines.lineNumber, error.message)
        }
        guard repeats > 0 else { continue }
        if let problem = budget.add(request.size, count: Int64(repeats))
          ?? budget.addCost(attribute.cost, count: Int64(repeats))
        {
          throw TraceError(.malformedRecord, path: path, record: lines.lineNumber, problem)
        }
        let left = emit(&request, attribute, repeats)
        if left > 0 { pending = (request, attribute, left) }
      }
      return filled
    }
    return batch.count > 0
  }

  /// ``read(into:)`` for parsers of one request per line without attributes: the parser and
  /// the byte budget live in locals for the loop, so the hot path touches no class property.
  private func readPlain(into batch: RequestBatch) throws(TraceError) -> Bool {
    batch.clearAttributes()
    var parser = self.parser
    var budget = self.budget
    let lines = self.lines
    defer {
      self.parser = parser
      self.budget = budget
    }
    try batch.refill { (requests: UnsafeMutableBufferPointer<Request>) throws(TraceError) -> Int in
      var filled = 0
      var request = Request(key: 0)
      while filled < requests.count, let line = try lines.nextLine() {
        let parsed: Bool
        do throws(LineError) {
          parsed = try parser.parse(line, into: &request)
        } catch {
          throw TraceError(.malformedRecord, path: lines.path, record: lines.lineNumber, error.message)
        }
        guard parsed else { continue }
        if let problem = budget.add(request.size) {
          throw TraceError(.malformedRecord, path: lines.path, record: lines.lineNumber, problem)
        }
        requests[filled] = request
        filled += 1
      }
      return filled
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }
}
