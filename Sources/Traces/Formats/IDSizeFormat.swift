import CacheCore

/// `seq id size` text, whitespace-separated (AdaptSize / webcachesim samples). `seq` is a
/// sequence number, not a time, so requests carry no time.
struct IDSizeParser: LineParser {
  let keyType: KeyType
  let traits = TraceTraits(hasTime: false, hasSize: true)

  init(keyType: KeyType) {
    self.keyType = keyType
  }

  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool {
    var position = 0
    guard FieldSplitter.nextWhitespaceField(line, &position) != nil else { return false }
    guard let idField = FieldSplitter.nextWhitespaceField(line, &position),
      let sizeField = FieldSplitter.nextWhitespaceField(line, &position),
      FieldSplitter.nextWhitespaceField(line, &position) == nil
    else {
      _ = try isBlankText(line)
      var counted = 0
      var cursor = 0
      while FieldSplitter.nextWhitespaceField(line, &cursor) != nil { counted += 1 }
      throw LineError("expected 3 fields 'seq id size', found \(counted)")
    }
    guard let size = ByteParsing.unsigned(sizeField), size <= UInt64(Int64.max) else {
      _ = try isBlankText(line)
      throw LineError("size '\(String(decoding: sizeField, as: UTF8.self))' is not a non-negative integer")
    }
    let key: UInt64
    if keyType != .string, let number = ByteParsing.unsigned(idField) {
      key = number
    } else {
      _ = try isBlankText(line)
      guard let value = keyType.key(idField) else {
        throw LineError("id '\(String(decoding: idField, as: UTF8.self))' is not an integer (key-type=int)")
      }
      key = value
    }
    request = Request(key: key, size: Int64(size))
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
