import CacheCore

/// `seq id size` text, whitespace-separated (AdaptSize / webcachesim samples). `seq` is a
/// sequence number, not a time, so requests carry no time.
struct IDSizeParser: LineParser {
  let keyType: KeyType
  let traits = TraceTraits(hasTime: false, hasSize: true)
  private var splitter = FieldSplitter(delimiter: nil)

  init(keyType: KeyType) {
    self.keyType = keyType
  }

  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool {
    if isBlank(line) { return false }
    if let problem = binaryDataProblem(line) { throw LineError(problem) }
    var key: UInt64 = 0
    var size: Int64 = 0
    let keyType = keyType
    let found = try splitter.forEachField(line) { (index, field) throws(LineError) -> Bool in
      switch index {
      case 1:
        guard let value = keyType.key(field) else {
          throw LineError("id '\(String(decoding: field, as: UTF8.self))' is not an integer (key-type=int)")
        }
        key = value
      case 2:
        guard let value = ByteParsing.unsigned(field), value <= UInt64(Int64.max) else {
          throw LineError("size '\(String(decoding: field, as: UTF8.self))' is not a non-negative integer")
        }
        size = Int64(value)
      default:
        break
      }
      return true
    }
    guard found == 3 else { throw LineError("expected 3 fields 'seq id size', found \(found)") }
    request = Request(key: key, size: size)
    return true
  }
}

extension TraceFormat {
  /// `id-size`: `seq id size` lines.
  static let idSize = TraceFormat(
    name: "id-size",
    aliases: ["webcachesim"],
    summary: "text 'seq id size' per line, whitespace-separated (AdaptSize/webcachesim)",
    parameters: [KeyType.spec],
    traits: TraceTraits(hasTime: false, hasSize: true),
    sniff: IDSizeParser.sniff
  ) { path, parameters throws(TraceError) in
    try LineRecordReader(
      path: path, parser: IDSizeParser(keyType: KeyType(rawValue: parameters.string("key-type")) ?? .auto))
  }
}

extension IDSizeParser {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    sample.everyLine { $0.count == 3 && UInt64($0[0]) != nil && UInt64($0[2]) != nil }
      ? SniffVerdict(2, "text, 'seq id size' on every line") : nil
  }

}
