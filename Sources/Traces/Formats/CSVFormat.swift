import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Delimited text with chosen time, key and size columns (libCacheSim-style CSV).
///
/// Columns are 1-based. With a header, unset columns are found by name (time: `time`,
/// `timestamp`, `clock_time`, ...; key: `key`, `obj_id`, `id`, `lbn`, ...; size: `size`,
/// `obj_size`, `bytes`, ...). Without a header, `key-col` is required. Non-numeric keys are
/// hashed (see `key-type`); blank lines are skipped; a row missing a chosen column, or
/// with a bad number, is an error naming the line.
struct CSVParser: LineParser {
  private var splitter: FieldSplitter
  private let delimiterChoice: String
  private let headerChoice: String
  private var timeColumn: Int?
  private var keyColumn: Int?
  private var sizeColumn: Int?
  private let explicitColumns: (time: Bool, key: Bool, size: Bool)
  private let keyType: KeyType
  private let timeUnit: TimeUnit
  private(set) var traits = TraceTraits(hasTime: false, hasSize: false)

  static let timeNames: Set<String> = ["time", "timestamp", "ts", "clock_time", "op_time", "real_time", "t"]
  static let keyNames: Set<String> = [
    "key", "obj_id", "object_id", "objid", "id", "obj", "object", "lbn", "lba", "block", "url",
  ]
  static let sizeNames: Set<String> = ["size", "obj_size", "object_size", "bytes", "len", "length"]

  init(parameters: Parameters) {
    delimiterChoice = parameters.string("delimiter")
    headerChoice = parameters.string("header")
    func column(_ name: String) -> Int? {
      let value = parameters.integer(name)
      return value > 0 ? Int(value - 1) : nil
    }
    timeColumn = column("time-col")
    keyColumn = column("key-col")
    sizeColumn = column("size-col")
    explicitColumns = (
      parameters.isExplicit("time-col"), parameters.isExplicit("key-col"), parameters.isExplicit("size-col")
    )
    keyType = KeyType(rawValue: parameters.string("key-type")) ?? .auto
    timeUnit = TimeUnit(rawValue: parameters.string("time-unit")) ?? .s
    splitter = FieldSplitter(delimiter: 0x2C)
  }

  mutating func begin(_ lines: LineReader) throws(TraceError) {
    func fail(_ message: String) -> TraceError {
      TraceError(.malformedRecord, path: lines.path, record: max(lines.lineNumber, 1), message)
    }
    var first: UnsafeRawBufferPointer?
    while let line = try lines.nextLine() {
      if !isBlank(line) {
        first = line
        break
      }
    }
    if let first, first.contains(0) || first.filter({ $0 < 0x09 || $0 == 0x7F }).count * 10 > first.count {
      throw fail(
        "this is binary data, not CSV text (NUL or control bytes in the first line); name the trace's real format (see 'cachelab formats')"
      )
    }
    let delimiter: UInt8? = Self.delimiter(named: delimiterChoice, sample: first)
    splitter = FieldSplitter(delimiter: delimiter)
    var isHeader = headerChoice == "true"
    if let first {
      var names: [String] = []
      do throws(LineError) {
        _ = try splitter.forEachField(first) { (_, field) throws(LineError) -> Bool in
          names.append(String(decoding: ByteParsing.trim(field), as: UTF8.self).lowercased())
          return true
        }
      } catch {
        throw fail(error.message)
      }
      if headerChoice == "auto" {
        let known = Self.timeNames.union(Self.keyNames).union(Self.sizeNames)
        isHeader = names.contains { known.contains($0) }
      }
      if isHeader {
        if !explicitColumns.time { timeColumn = names.firstIndex { Self.timeNames.contains($0) } }
        if !explicitColumns.key { keyColumn = names.firstIndex { Self.keyNames.contains($0) } }
        if !explicitColumns.size { sizeColumn = names.firstIndex { Self.sizeNames.contains($0) } }
        if keyColumn == nil {
          throw fail(
            "no key column: name one key/obj_id/id/lbn in the header or set key-col=N (header: \(names.joined(separator: ",")))"
          )
        }
      } else {
        lines.pushBack()
      }
    }
    guard keyColumn != nil else {
      throw TraceError(
        .unsupported, path: lines.path, record: 1,
        "a CSV trace without a header needs key-col=N (and time-col, size-col if present), e.g. --format csv:key-col=1")
    }
    traits = TraceTraits(hasTime: timeColumn != nil, hasSize: sizeColumn != nil)
  }

  private static func delimiter(named name: String, sample: UnsafeRawBufferPointer?) -> UInt8? {
    switch name {
    case "comma": return 0x2C
    case "tab": return 0x09
    case "semicolon": return 0x3B
    case "pipe": return 0x7C
    case "space": return nil
    default:
      guard let sample else { return 0x2C }
      if sample.contains(0x09) { return 0x09 }
      if sample.contains(0x2C) { return 0x2C }
      if sample.contains(0x3B) { return 0x3B }
      if sample.contains(0x7C) { return 0x7C }
      return nil
    }
  }

  mutating func parse(_ line: UnsafeRawBufferPointer, into request: inout Request) throws(LineError) -> Bool {
    // A line that starts with a printable byte is not blank; control bytes that mark binary
    // data are looked for in the fields read (and in lines starting with one).
    guard let base = line.baseAddress, !line.isEmpty else { return false }
    if line[0] <= 0x20, try isBlankText(line) { return false }
    let lastNeeded = max(keyColumn ?? 0, timeColumn ?? -1, sizeColumn ?? -1)
    var parsed = Request(key: 0)
    let fields: Int
    if let delimiter = splitter.delimiter, memchr(base, 0x22, line.count) == nil {
      // No quotes: fields end at the next delimiter, found without a closure.
      var index = 0
      var position = 0
      let count = line.count
      while true {
        let end = FieldSplitter.end(of: line, from: position, delimiter: delimiter)
        try absorb(index, UnsafeRawBufferPointer(rebasing: line[position..<end]), into: &parsed)
        index += 1
        guard index <= lastNeeded, end < count else { break }
        position = end + 1
      }
      fields = index
    } else {
      let parser = self
      fields = try splitter.forEachField(line) { (index, raw) throws(LineError) -> Bool in
        try parser.absorb(index, raw, into: &parsed)
        return index < lastNeeded
      }
    }
    guard fields > lastNeeded else {
      throw LineError("expected at least \(lastNeeded + 1) fields, found \(fields)")
    }
    request = parsed
    return true
  }

  /// Reads field `index` (`raw`, untrimmed) into `parsed` if it is the key, time or size
  /// column; a control byte in a field read is binary data.
  @inline(__always)
  private func absorb(_ index: Int, _ raw: UnsafeRawBufferPointer, into parsed: inout Request) throws(LineError) {
    if index == keyColumn ?? 0 {
      let field = ByteParsing.trim(raw)
      if keyType != .string, let number = ByteParsing.unsigned(field) {
        parsed.key = number
        return
      }
      if let problem = binaryDataProblem(raw) { throw LineError(problem) }
      guard let key = keyType.key(field) else {
        throw LineError(
          "key '\(String(decoding: field, as: UTF8.self))' in column \(index + 1) is not valid for key-type=\(keyType.rawValue)"
        )
      }
      parsed.key = key
    } else if index == timeColumn {
      let field = ByteParsing.trim(raw)
      guard let time = ByteParsing.microseconds(field, unit: timeUnit) else {
        if let problem = binaryDataProblem(raw) { throw LineError(problem) }
        let text = String(decoding: field, as: UTF8.self)
        throw LineError(
          (Double(text).map { $0 >= 0 } ?? false)
            ? "time '\(text)' in column \(index + 1) is above the largest time CacheLab accepts, 2^62 µs (about 146,000 years)"
            : "time '\(text)' in column \(index + 1) is not a non-negative number")
      }
      parsed.time = time
    } else if index == sizeColumn {
      let field = ByteParsing.trim(raw)
      guard let size = ByteParsing.unsigned(field), size <= UInt64(Int64.max) else {
        if let problem = binaryDataProblem(raw) { throw LineError(problem) }
        throw LineError(
          "size '\(String(decoding: field, as: UTF8.self))' in column \(index + 1) is not a non-negative integer")
      }
      parsed.size = Int64(size)
    }
  }
}

extension TraceFormat {
  /// `csv`: delimited text with chosen columns.
  static let csv = TraceFormat(
    name: "csv",
    summary: "delimited text; time/key/size columns by header name or time-col/key-col/size-col",
    parameters: [
      ParameterSpec(
        "key-col", default: "0", .integer(0...4096), help: "1-based key column (0: find by header name)",
        aliases: ["obj-id-col"]),
      ParameterSpec(
        "time-col", default: "0", .integer(0...4096), help: "1-based time column (0: by header name, else none)"),
      ParameterSpec(
        "size-col", default: "0", .integer(0...4096), help: "1-based size column (0: by header name, else size 1)",
        aliases: ["obj-size-col"]),
      ParameterSpec(
        "header", default: "auto", .choice(["auto", "true", "false"]),
        help: "whether line 1 names the columns (auto: if it holds a known name)", aliases: ["has-header"]),
      ParameterSpec(
        "delimiter", default: "auto", .choice(["auto", "comma", "tab", "space", "semicolon", "pipe"]),
        help: "field separator (space: runs of spaces/tabs)"),
      KeyType.spec,
      TimeUnit.spec,
    ],
    fileSuffixes: [".csv", ".tsv"],
    traits: TraceTraits(hasTime: true, hasSize: true),
    sniff: CSVParser.sniff
  ) { path, parameters throws(TraceError) in
    try LineRecordReader(path: path, parser: CSVParser(parameters: parameters))
  }
}

extension CSVParser {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText, let header = sample.lines.first(where: { !$0.allSatisfy(\.isWhitespace) }) else {
      return nil
    }
    let separators: [Character] = [",", "\t", ";", "|"]
    guard let separator = separators.first(where: { header.contains($0) }) else { return nil }
    let names = header.split(separator: separator).map { $0.trimmedOfSpaces.lowercased() }
    guard names.contains(where: { CSVParser.keyNames.contains($0) }) else { return nil }
    return SniffVerdict(2, "delimited text whose header names a key column")
  }
}
