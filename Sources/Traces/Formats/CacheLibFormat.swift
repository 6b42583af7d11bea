import CacheCore

/// CacheLib's cachebench key-value trace CSV (`op_time,key,key_size,op,op_count,size,...,ttl`,
/// columns found by header name). A row stands for `op_count` identical requests; the object
/// size is `key_size + size`; `op` GET/GET_LEASE reads, SET/SET_LEASE stores, DELETE removes;
/// `ttl` is in seconds (0 = none); keys are hex strings (hashed). An `op_count` above
/// ``maximumOpCount`` is refused: one row would stand for more requests than any real trace
/// repeats (a garbled count would otherwise replay for hours).
struct CacheLibParser: CountingLineParser {
  /// The most requests one row may stand for.
  static let maximumOpCount: Int64 = 1_000_000
  let traits = TraceTraits(hasTime: true, hasSize: true, hasAttributes: true, hasTTL: true)
  var producesAttributes: Bool { true }
  private var splitter = FieldSplitter(delimiter: 0x2C)
  private var index: [String: Int] = [:]
  private var required = 0

  static let needed = ["op_time", "key", "key_size", "op", "op_count", "size"]

  mutating func begin(_ lines: LineReader) throws(TraceError) {
    guard let header = try lines.nextLine() else { return }
    var names: [String] = []
    do throws(LineError) {
      _ = try splitter.forEachField(header) { (_, field) throws(LineError) -> Bool in
        names.append(String(decoding: ByteParsing.trim(field), as: UTF8.self).lowercased())
        return true
      }
    } catch {
      throw TraceError(.malformedRecord, path: lines.path, record: 1, error.message)
    }
    for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
    for name in Self.needed where index[name] == nil {
      throw TraceError(
        .malformedRecord, path: lines.path, record: 1,
        "a CacheLib trace needs the columns \(Self.needed.joined(separator: ",")); missing '\(name)'")
    }
    required = (Self.needed.compactMap { index[$0] }.max() ?? 0) + 1
  }

  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int {
    if try isBlankText(line) { return 0 }
    var fields: [Int: UnsafeRawBufferPointer] = [:]
    let wanted = Set(["op_time", "key", "key_size", "op", "op_count", "size", "ttl"].compactMap { index[$0] })
    let count = try splitter.forEachField(line) { (position, field) throws(LineError) -> Bool in
      if wanted.contains(position) { fields[position] = ByteParsing.trim(field) }
      return true
    }
    guard count >= required else { throw LineError("expected at least \(required) fields, found \(count)") }
    func field(_ name: String) -> UnsafeRawBufferPointer {
      fields[index[name] ?? -1] ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }
    func number(_ name: String) throws(LineError) -> Int64 {
      guard let value = ByteParsing.unsigned(field(name)), value <= UInt64(Int64.max) else {
        throw LineError("\(name) '\(String(decoding: field(name), as: UTF8.self))' is not a non-negative integer")
      }
      return Int64(value)
    }
    guard let time = ByteParsing.microseconds(field("op_time"), unit: .s) else {
      throw LineError(
        "op_time '\(String(decoding: field("op_time"), as: UTF8.self))' is not a non-negative time below 2^62 µs")
    }
    guard !field("key").isEmpty else { throw LineError("empty key") }
    let operation: Request.Operation
    switch String(decoding: field("op"), as: UTF8.self).uppercased() {
    case "GET", "GET_LEASE": operation = .get
    case "SET", "SET_LEASE": operation = .put
    case "DELETE": operation = .delete
    case let other: throw LineError("op '\(other)' is not GET, GET_LEASE, SET, SET_LEASE or DELETE")
    }
    let repeats = try number("op_count")
    guard repeats <= Self.maximumOpCount else {
      throw LineError(
        "op_count \(repeats) is above \(Self.maximumOpCount) repetitions of one row (cachebench's samples use at most 50; split a larger count into several rows)"
      )
    }
    let keySize = try number("key_size")
    let valueSize = try number("size")
    guard keySize <= Request.maximumSize, valueSize <= Request.maximumSize else {
      throw LineError("key_size + size is above the largest object CacheLab accepts, 2^48 bytes (256 TiB)")
    }
    request = Request(time: time, key: KeyHash.hash(field("key")), size: keySize + valueSize, operation: operation)
    attributes = RequestAttributes()
    if index["ttl"] != nil, !field("ttl").isEmpty {
      let ttl = try number("ttl")
      guard ttl <= Duration.maximum / microsecondsPerSecond else {
        throw LineError("ttl \(ttl) s is longer than CacheLab's longest duration, \(Duration.maximumDescription)")
      }
      if ttl > 0 { attributes.ttl = ttl * microsecondsPerSecond }
    }
    return Int(repeats)
  }
}

extension TraceFormat {
  /// `cachelib`: CacheLib kv trace CSV.
  static let cacheLib = TraceFormat(
    name: "cachelib",
    summary:
      "CacheLib kv CSV: op_time,key,key_size,op,op_count,size,...,ttl (size = key_size + size, rows repeat op_count times)",
    traits: TraceTraits(hasTime: true, hasSize: true, hasAttributes: true),
    sniff: CacheLibParser.sniff
  ) { path, _ throws(TraceError) in
    try LineRecordReader(path: path, parser: CacheLibParser())
  }
}

extension CacheLibParser {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText, let header = sample.lines.first?.lowercased(),
      header.hasPrefix("op_time,key,key_size,op,op_count,size")
    else { return nil }
    return SniffVerdict(3, "CacheLib's header op_time,key,key_size,op,op_count,size")
  }
}
