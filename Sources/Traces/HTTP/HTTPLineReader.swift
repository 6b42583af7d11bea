import CacheCore

/// Reads the ``HTTPRecord`` of one log line (access logs, Squid, W3C): the per-line half of an
/// HTTP log reader, which ``HTTPLineReader`` runs on a thread of its own, ahead of the mapping.
/// It sees every line once, in file order, so it may keep state (W3C's `#Fields:`).
protocol HTTPLineParser {
  /// Called once, on the caller's thread, before any line is read (e.g. to pick a layout
  /// from the first line); a line it reads but does not consume must be pushed back.
  mutating func begin(_ lines: LineReader) throws(TraceError)
  /// The most bytes ``record(_:scratch:)`` appends to its scratch for a line of `length` bytes.
  func scratchNeeded(forLineOf length: Int) -> Int
  /// The record `line` holds, or nil for a line with none (blank, directive); its text may
  /// borrow `line` and what it appends to `scratch`, both kept until the record is mapped.
  mutating func record(_ line: UnsafeRawBufferPointer, scratch: ByteScratch) throws(LineError) -> HTTPRecord?
}

extension HTTPLineParser {
  mutating func begin(_ lines: LineReader) throws(TraceError) {}

  func scratchNeeded(forLineOf length: Int) -> Int { 0 }
}

/// A streaming reader for HTTP logs in two stages on two threads: a background thread splits
/// the lines and parses each into an ``HTTPRecord`` (the parser's work), a few blocks of lines
/// ahead of the caller, which maps the records in file order through ``HTTPTraffic`` (URL
/// versions, sizes, memos, counts). Errors keep the line they belong to and come in file
/// order, as from a one-thread reader. Memory: three blocks of about 1 MiB of lines, twice
/// that of scratch, and their records (a longer line grows its block until the block is
/// reused). The background thread starts at the first read.
final class HTTPLineReader<Parser: HTTPLineParser>: TraceReader {
  private let producer: Producer
  private let blockLines: Int
  private let blockBytes: Int
  private var ring: ReadAheadRing<LineBlock>?
  private var block: LineBlock?
  private var index = 0
  private var budget = ByteBudget()
  /// Nil only while ``read(into:)`` holds it in a local (class storage costs an access check
  /// per record).
  private var traffic: HTTPTraffic? = HTTPTraffic()
  /// The traffic's URL book, kept apart: other threads may ask for it during a read.
  let trafficBook: TrafficBook?
  let path: String
  private(set) var requestsRead: Int64 = 0
  var traits: TraceTraits { HTTPTraffic.traits }
  var knownRequestCount: Int64? { nil }
  /// What mapping counted; read it after the end (it is nil during a read).
  var notes: String? { traffic?.summary }

  /// Reads `path` with `parser`, in blocks of at most `blockLines` lines and about
  /// `blockBytes` bytes (a longer line gets a block of its own).
  init(path: String, parser: Parser, blockLines: Int = 4_096, blockBytes: Int = 1 << 20) throws(TraceError) {
    let lines = try LineReader(path: path)
    var parser = parser
    try parser.begin(lines)
    self.path = path
    self.blockLines = blockLines
    self.blockBytes = blockBytes
    trafficBook = traffic?.book
    producer = Producer(lines: lines, parser: parser)
  }

  /// Does not wait for the parsing thread: on a pipe it may be blocked in a read.
  deinit {
    ring?.stop(waiting: false)
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    let attributes = batch.attributesForWriting()
    var traffic = self.traffic.take()!
    defer { self.traffic = traffic }
    try batch.refill { (requests) throws(TraceError) -> Int in
      var filled = 0
      while filled < requests.count {
        guard let block, index < block.count else {
          if let failure = block?.failure { throw failure }
          guard let next = try started().next() else { break }
          block = next
          index = 0
          continue
        }
        let line = block.lineNumbers[index]
        let records = block.records
        let mapped = traffic.map(records[index], into: &requests[filled], attributes: &attributes[filled])
        index += 1
        guard mapped else { continue }
        if let problem = budget.add(requests[filled].size) ?? budget.addCost(attributes[filled].cost) {
          throw TraceError(.malformedRecord, path: path, record: line, problem)
        }
        filled += 1
      }
      return filled
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }

  /// The ring, started at the first read (a convert turns the URL book on after opening).
  private func started() -> ReadAheadRing<LineBlock> {
    if let ring { return ring }
    let producer = producer
    let blocks = (0..<3).map { _ in LineBlock(lines: blockLines, bytes: blockBytes) }
    let made = ReadAheadRing(blocks) { block throws(TraceError) in producer.fill(block) }
    ring = made
    return made
  }

  /// The background half: the lines and the parser, touched by the producer thread only
  /// once the ring has started.
  private final class Producer: @unchecked Sendable {
    let lines: LineReader
    var parser: Parser?
    /// Whether the input ended, or a line failed (nothing after it is read).
    var finished = false

    init(lines: LineReader, parser: Parser) {
      self.lines = lines
      self.parser = parser
    }

    /// Fills `block` with the next lines' records; false when there are none left.
    func fill(_ block: LineBlock) -> Bool {
      guard !finished else { return false }
      block.reset()
      // In a local for the loop: a class-held parser is checked (and copied) per call.
      var parser = self.parser.take()!
      defer { self.parser = parser }
      while block.count < block.capacity {
        let line: UnsafeRawBufferPointer
        do throws(TraceError) {
          guard let next = try lines.nextLine() else {
            finished = true
            break
          }
          line = next
        } catch {
          block.failure = error
          finished = true
          break
        }
        let scratchNeeded = parser.scratchNeeded(forLineOf: line.count)
        guard block.makeRoom(line: line.count, scratch: scratchNeeded) else {
          lines.pushBack()
          break
        }
        do throws(LineError) {
          if let record = try parser.record(block.keep(line), scratch: block.scratch) {
            block.append(consume record, line: lines.lineNumber)
          }
        } catch {
          block.failure = TraceError(.malformedRecord, path: lines.path, record: lines.lineNumber, error.message)
          finished = true
          break
        }
      }
      return block.count > 0 || block.failure != nil
    }
  }
}

/// A block of log lines copied out of the file, with the records parsed from them and the
/// scratch their text borrows: everything a record points into lives until the block is reused.
final class LineBlock: @unchecked Sendable {
  /// The most records the block holds.
  let capacity: Int
  /// The line bytes the block holds before it is full (a longer line gets a block of its own).
  private let bytes: Int
  private let lines: ByteScratch
  let scratch: ByteScratch
  let records: UnsafeMutablePointer<HTTPRecord>
  let lineNumbers: UnsafeMutablePointer<Int64>
  @exclusivity(unchecked) private(set) var count = 0
  /// What ended the input after the last record (a malformed line, a read error).
  var failure: TraceError?

  init(lines capacity: Int, bytes: Int) {
    self.capacity = capacity
    self.bytes = bytes
    lines = ByteScratch(capacity: bytes)
    scratch = ByteScratch(capacity: 2 * bytes)
    records = .allocate(capacity: capacity)
    lineNumbers = .allocate(capacity: capacity)
  }

  deinit {
    records.deinitialize(count: count)
    records.deallocate()
    lineNumbers.deallocate()
  }

  /// Empties the block for the next lines (and gives back what a long line grew it by).
  func reset() {
    records.deinitialize(count: count)
    count = 0
    failure = nil
    lines.reset(capacity: bytes, shrinking: true)
    scratch.reset(capacity: 2 * bytes, shrinking: true)
  }

  /// Whether a line of `line` bytes needing `scratch` bytes fits; an empty block grows to fit.
  func makeRoom(line: Int, scratch needed: Int) -> Bool {
    if lines.room >= line, scratch.room >= needed { return true }
    guard count == 0 else { return false }
    lines.reset(capacity: line)
    scratch.reset(capacity: needed)
    return true
  }

  /// A copy of `line` that lives as long as the block's contents.
  func keep(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer { lines.append(line) }

  /// Adds the record of line `line` (moved in, not copied).
  func append(_ record: consuming HTTPRecord, line: Int64) {
    (records + count).initialize(to: record)
    lineNumbers[count] = line
    count += 1
  }
}
