import CacheCore

/// Plain text, one key per line (the LIRS traces, libCacheSim's txt). Lines holding only
/// `*` are checkpoint markers and blank lines hold nothing; both are skipped. No time, no
/// size.
struct TextKeyParser: LineParser {
  let keyType: KeyType
  let traits = TraceTraits(hasTime: false, hasSize: false)

  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool {
    let field = ByteParsing.trim(line)
    if field.isEmpty || (field.count == 1 && field[0] == 0x2A) { return false }
    if let key = ByteParsing.unsigned(field), keyType != .string {
      request = Request(key: key)
      return true
    }
    if let problem = binaryDataProblem(field) { throw LineError(problem) }
    guard let key = keyType.key(field) else {
      throw LineError("key '\(String(decoding: field, as: UTF8.self))' is not an integer (key-type=int)")
    }
    request = Request(key: key)
    return true
  }
}

extension TraceFormat {
  /// `txt`: one key per line.
  static let txt = TraceFormat(
    name: "txt",
    aliases: ["plain", "text"],
    summary: "text, one key per line; '*' marker lines and blank lines skipped (LIRS traces)",
    parameters: [KeyType.spec],
    fileSuffixes: [".txt"],
    traits: TraceTraits(hasTime: false, hasSize: false),
    sniff: TextKeyParser.sniff
  ) { path, parameters throws(TraceError) in
    try LineRecordReader(
      path: path, parser: TextKeyParser(keyType: KeyType(rawValue: parameters.string("key-type")) ?? .auto))
  }
}

extension TextKeyParser {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText else { return nil }
    let lines = sample.lines.map { $0.trimmedOfSpaces }.filter { !$0.isEmpty && $0 != "*" }
    guard !lines.isEmpty, lines.allSatisfy({ !$0.contains(" ") && !$0.contains("\t") && !$0.contains(",") })
    else { return nil }
    return lines.allSatisfy({ Int64($0) != nil })
      ? SniffVerdict(2, "text, one integer key per line") : SniffVerdict(1, "text, one token per line")
  }
}
