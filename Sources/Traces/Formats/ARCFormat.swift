import CacheCore

/// The ARC paper's block traces (`*.lis`: P1–P14, OLTP, DS1, S1–S3, as Caffeine's simulator
/// reads them): `starting_block number_of_blocks ignore request_number` per line; each line
/// requests blocks `start ..< start + count`, one object each. No time, no size.
struct ARCParser: CountingLineParser {
  let traits = TraceTraits(hasTime: false, hasSize: false)
  var repeatKeyStep: UInt64 { 1 }
  private var splitter = FieldSplitter(delimiter: nil)
  /// Larger counts on one line are taken as corrupt input (real lines span a few blocks).
  static let maximumBlocks: UInt64 = 1 << 20

  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int {
    if try isBlankText(line) { return 0 }
    var start: UInt64 = 0
    var count: UInt64 = 0
    let found = try splitter.forEachField(line) { (index, field) throws(LineError) -> Bool in
      guard index < 2 else { return false }
      guard let value = ByteParsing.unsigned(field) else {
        let name = index == 0 ? "starting block" : "number of blocks"
        throw LineError("\(name) '\(String(decoding: field, as: UTF8.self))' is not a non-negative integer")
      }
      if index == 0 { start = value } else { count = value }
      return true
    }
    guard found >= 2 else { throw LineError("expected 'starting_block number_of_blocks ...', found \(found) field") }
    guard count <= Self.maximumBlocks else { throw LineError("\(count) blocks on one line (at most 2^20)") }
    guard count == 0 || start <= UInt64.max - (count - 1) else {
      throw LineError("blocks \(start) + \(count) run past the last block number, 2^64 - 1 (a garbled start block)")
    }
    request = Request(key: start)
    return Int(count)
  }

  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    sample.everyLine { $0.count == 4 && $0.allSatisfy { UInt64($0) != nil } }
      ? SniffVerdict(2, "text, 'start_block blocks ignore request' on every line (ARC .lis)") : nil
  }

}

extension TraceFormat {
  /// `arc`: ARC paper block-range traces.
  static let arc = TraceFormat(
    name: "arc",
    aliases: ["lis"],
    summary: "ARC paper block traces (.lis): 'start_block blocks ignore request' per line, one request per block",
    fileSuffixes: [".lis"],
    traits: TraceTraits(hasTime: false, hasSize: false),
    sniff: ARCParser.sniff
  ) { path, _ throws(TraceError) in
    try LineRecordReader(path: path, parser: ARCParser())
  }
}
