import CacheCore

/// SNIA's MSR Cambridge block traces: CSV rows `Timestamp,Hostname,DiskNumber,Type,Offset,
/// Size,ResponseTime` (Timestamp in Windows FILETIME, 100 ns ticks; Type `Read` or `Write`;
/// Offset and Size in bytes). Each row becomes one request per `block-size` block it touches
/// (the offset aligned down), of that block's size; keys are block numbers, offset by a hash of
/// host and disk so volumes never share blocks. `ops` keeps reads, writes or both.
struct MSRParser: CountingLineParser {
  let traits = TraceTraits(hasTime: true, hasSize: true)
  var repeatKeyStep: UInt64 { 1 }
  private var splitter = FieldSplitter(delimiter: 0x2C)
  let blockSize: Int64
  let keepReads: Bool
  let keepWrites: Bool

  init(parameters: Parameters) {
    blockSize = max(1, parameters.bytes("block-size"))
    let ops = parameters.string("ops")
    keepReads = ops != "write"
    keepWrites = ops != "read"
  }

  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int {
    if try isBlankText(line) { return 0 }
    var ticks: UInt64 = 0
    var volume: UInt64 = 0xcbf2_9ce4_8422_2325
    var isWrite = false
    var offset: UInt64 = 0
    var size: UInt64 = 0
    let found = try splitter.forEachField(line) { (index, field) throws(LineError) -> Bool in
      let text = ByteParsing.trim(field)
      func number(_ name: String) throws(LineError) -> UInt64 {
        guard let value = ByteParsing.unsigned(text) else {
          throw LineError("\(name) '\(String(decoding: text, as: UTF8.self))' is not a non-negative integer")
        }
        return value
      }
      switch index {
      case 0: ticks = try number("Timestamp")
      case 1, 2: volume = KeyHash.mix(volume ^ KeyHash.hash(text))
      case 3:
        let type = String(decoding: text, as: UTF8.self).lowercased()
        guard type == "read" || type == "write" else { throw LineError("Type '\(type)' is not Read or Write") }
        isWrite = type == "write"
      case 4: offset = try number("Offset")
      case 5: size = try number("Size")
      default: return false
      }
      return true
    }
    guard found >= 6 else {
      throw LineError("expected 'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime', found \(found) fields")
    }
    guard isWrite ? keepWrites : keepReads, size > 0 else { return 0 }
    guard offset < UInt64(Request.maximumSize), size <= UInt64(Request.maximumSize) else {
      throw LineError("Offset \(offset) or Size \(size) is above 2^48 bytes")
    }
    let block = UInt64(blockSize)
    let first = offset / block
    let last = (offset + size - 1) / block
    guard last - first < ARCParser.maximumBlocks else {
      throw LineError("Size \(size) spans \(last - first + 1) blocks of \(blockSize) bytes (at most 2^20 per row)")
    }
    request = Request(
      time: Int64(min(ticks / 10, UInt64(Request.timeLimit - 1))), key: volume &+ first, size: blockSize)
    return Int(last - first + 1)
  }

  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    let isRow = { (fields: [Substring]) in
      fields.count == 7 && UInt64(fields[0]) != nil && ["read", "write"].contains(fields[3].lowercased())
        && UInt64(fields[4]) != nil && UInt64(fields[5]) != nil
    }
    return sample.everyLine(splitAt: ",", isRow)
      ? SniffVerdict(3, "MSR Cambridge rows Timestamp,Hostname,DiskNumber,Read|Write,Offset,Size,ResponseTime") : nil
  }

}

extension TraceFormat {
  /// `msr`: SNIA MSR Cambridge block CSV, split into blocks.
  static let msr = TraceFormat(
    name: "msr",
    aliases: ["snia", "msr-cambridge"],
    summary: "SNIA MSR Cambridge CSV (Timestamp,Hostname,DiskNumber,Type,Offset,Size,...), one request per block",
    parameters: [
      ParameterSpec("block-size", default: "4096", .positiveByteCount, help: "block size the requests are split into"),
      ParameterSpec("ops", default: "all", .choice(["all", "read", "write"]), help: "which requests to keep"),
    ],
    traits: TraceTraits(hasTime: true, hasSize: true),
    sniff: MSRParser.sniff
  ) { path, parameters throws(TraceError) in
    try LineRecordReader(path: path, parser: MSRParser(parameters: parameters))
  }
}
