import CacheCore

/// CacheLab's own trace format: CSV with a header naming the columns, one row per request
/// or event. `time` (seconds), `key` and `size` are required; every other column is
/// optional, in any order (see Traces/README.md): `op`, `cost`, `ttl`, `class`, `version`,
/// `cache_control`, `expires`, `date`, `last_modified`, `age`, `etag`, `status`, `latency`,
/// `event`, `vary` (`*` for `Vary: *`), `authorization` and `set_cookie` (a non-empty cell
/// means the header was present),
/// `stored_size`, `observed` (`hit`, `miss` or `client-hit`: what a real cache did) and
/// `url_length` (the original URL's length, for a key an anonymized URL replaced). Names from the seed schema are accepted as aliases (`t`, `ver`, `bytes`, `cc`,
/// `ctype`). Unknown columns are ignored; an empty cell means "absent".
struct CacheLabParser: CountingLineParser {
  enum Column: String, CaseIterable {
    case time, key, size, op, cost, ttl
    case contentClass = "class"
    case version
    case cacheControl = "cache_control"
    case expires, date
    case lastModified = "last_modified"
    case age, etag, status, latency, event, vary, authorization
    case setCookie = "set_cookie"
    case storedSize = "stored_size"
    case observed
    case urlLength = "url_length"

    static let aliases: [String: Column] = [
      "t": .time, "ver": .version, "bytes": .size, "cc": .cacheControl, "ctype": .contentClass,
      "content_class": .contentClass, "content_type": .contentClass, "cache-control": .cacheControl,
      "last-modified": .lastModified, "evt": .event, "auth": .authorization, "operation": .op, "obj_id": .key,
      "obj_size": .size,
    ]

    init?(header: String) {
      let name = header.lowercased()
      if let column = Column(rawValue: name) {
        self = column
      } else if let alias = Self.aliases[name] {
        self = alias
      } else {
        return nil
      }
    }
  }

  let traits = TraceTraits(hasTime: true, hasSize: true, hasAttributes: true, hasTTL: true)
  var producesAttributes: Bool { true }
  var trafficBook: TrafficBook? { memos.book }
  private var splitter = FieldSplitter(delimiter: 0x2C)
  /// Column of each field index (nil: ignored).
  private var columns: [Column?] = []
  private var required: Int = 0
  /// Parsed values of repeated header texts (a trace repeats a few `cache_control`, `class`,
  /// `op` and `event` values on every row).
  private let memos = Memos()

  final class Memos {
    let cacheControl = FieldMemo<CacheControl>()
    let contentClass = FieldMemo<ContentClass>(slots: 16)
    let operation = FieldMemo<Request.Operation>(slots: 16)
    let event = FieldMemo<LifecycleEvent>(slots: 16)
    let observed = FieldMemo<ObservedOutcome>(slots: 16)
    /// The object id and URL parts of recent key texts (a trace repeats its popular URLs):
    /// a hit skips hashing the text and parsing the URL.
    let keys = FieldMemo<(UInt64, URLKey)>(slots: 1024)
    /// The URL text of each hashed key, while a consumer records.
    let book = TrafficBook()
  }

  mutating func begin(_ lines: LineReader) throws(TraceError) {
    guard let header = try lines.nextLine() else { return }
    var names: [String] = []
    do throws(LineError) {
      _ = try splitter.forEachField(header) { (_, field) throws(LineError) -> Bool in
        names.append(String(decoding: ByteParsing.trim(field), as: UTF8.self))
        return true
      }
    } catch {
      throw TraceError(.malformedRecord, path: lines.path, record: 1, error.message)
    }
    columns = names.map { Column(header: $0) }
    for needed in [Column.time, .key, .size] where !columns.contains(needed) {
      throw TraceError(
        .malformedRecord, path: lines.path, record: 1,
        "the cachelab format needs a header with time, key and size columns; missing '\(needed.rawValue)' (header: \(names.joined(separator: ",")))"
      )
    }
    required = (columns.lastIndex { $0 == .time || $0 == .key || $0 == .size } ?? 0) + 1
  }

  mutating func parse(
    _ line: UnsafeRawBufferPointer, into request: inout Request, attributes: inout RequestAttributes
  ) throws(LineError) -> Int {
    if try isBlankText(line) { return 0 }
    var parsed = Request(key: 0, size: 0)
    var row = RequestAttributes()
    var keyPresent = false
    let columns = columns
    let memos = memos
    var urlLength: Int32?
    let fields = try splitter.forEachField(line) { (index, raw) throws(LineError) -> Bool in
      guard index < columns.count, let column = columns[index] else { return true }
      let field = ByteParsing.trim(raw)
      if field.isEmpty { return true }
      if column == .urlLength {
        guard let length = ByteParsing.unsigned(field), length <= UInt64(Int32.max) else {
          throw LineError("url_length '\(Self.text(field))' is not a length in bytes")
        }
        urlLength = Int32(length)
        return true
      }
      try Self.apply(column, field, to: &parsed, &row, keyPresent: &keyPresent, memos: memos)
      return true
    }
    if let urlLength, row.url.scheme != .none { row.url.length = urlLength }
    guard fields >= required else { throw LineError("expected at least \(required) fields, found \(fields)") }
    if parsed.operation == .get, row.event != .none { parsed.operation = .event }
    guard keyPresent || parsed.operation == .event else { throw LineError("missing key") }
    request = parsed
    attributes = row
    return 1
  }

  private static func text(_ field: UnsafeRawBufferPointer) -> String {
    String(decoding: field, as: UTF8.self)
  }

  private static func seconds(_ field: UnsafeRawBufferPointer, _ column: Column) throws(LineError) -> Int64 {
    guard let micros = ByteParsing.microseconds(field, unit: .s) else {
      throw LineError(
        "\(column.rawValue) '\(text(field))' is not a non-negative number of seconds below 2^62 µs (about 146,000 years)"
      )
    }
    return micros
  }

  private static func integer(_ field: UnsafeRawBufferPointer, _ column: Column) throws(LineError) -> Int64 {
    guard let value = ByteParsing.signed(field) else {
      throw LineError("\(column.rawValue) '\(text(field))' is not an integer")
    }
    return value
  }

  @inline(__always)
  private static func apply(
    _ column: Column, _ field: UnsafeRawBufferPointer, to request: inout Request,
    _ row: inout RequestAttributes, keyPresent: inout Bool, memos: Memos
  ) throws(LineError) {
    switch column {
    case .time: request.time = try seconds(field, column)
    case .key:
      let (key, url) = try memos.keys.value(field, parse: keyAndURL)
      request.key = key
      row.url = url
      if url.scheme != .none { memos.book.record(key, text(field)) }
      keyPresent = true
    case .size:
      guard let size = ByteParsing.unsigned(field), size <= UInt64(Int64.max) else {
        throw LineError("size '\(text(field))' is not a non-negative integer")
      }
      request.size = Int64(size)
    case .op: request.operation = try memos.operation.value(field, parse: operation)
    case .cost:
      let cost = try integer(field, column)
      guard cost >= 0 else { throw LineError("cost must not be negative") }
      guard cost <= Request.maximumSize else { throw LineError("cost \(cost) is above 2^48") }
      row.cost = cost
    case .ttl: row.ttl = try seconds(field, column)
    case .contentClass: row.contentClass = try memos.contentClass.value(field, parse: contentClass)
    case .version: row.version = try integer(field, column)
    case .cacheControl: row.cacheControl = try memos.cacheControl.value(field) { CacheControl(parsing: text($0)) }
    case .expires:
      // A number is an absolute time; anything else (e.g. "Thu, 01 Jan 1970 garbage") is an
      // invalid Expires, which RFC 9111 treats as already expired.
      row.expires = ByteParsing.microseconds(field, unit: .s) ?? RequestAttributes.invalidDate
    case .date: row.date = try seconds(field, column)
    case .lastModified: row.lastModified = try seconds(field, column)
    case .age:
      let age = try integer(field, column)
      guard age >= 0 else { throw LineError("age must not be negative") }
      // RFC 9111 §1.2.2: delta-seconds beyond 2^31 are taken as 2^31.
      row.age = min(age, Int64(Int32.max))
    case .etag:
      let hash: UInt64
      if field.allSatisfy({ $0 < 0x80 }) {
        // ASCII: the bytes are the text's UTF-8, so hashing them in place gives its hash.
        let weak = field.count >= 2 && field[0] == UInt8(ascii: "W") && field[1] == UInt8(ascii: "/")
        row.etagIsWeak = weak
        hash = KeyHash.hash(weak ? UnsafeRawBufferPointer(rebasing: field[2...]) : field)
      } else {
        var value = Substring(text(field))
        if value.hasPrefix("W/") {
          row.etagIsWeak = true
          value = value.dropFirst(2)
        }
        hash = KeyHash.hash(String(value))
      }
      row.etag = hash == 0 ? 1 : hash
    case .status:
      let status = try integer(field, column)
      guard status == 0 || (100...599).contains(status) else {
        throw LineError("status \(status) is not an HTTP status: 100–599 (RFC 9110 §15), or 0 for none")
      }
      row.status = Int16(status)
    case .latency: row.latency = try seconds(field, column)
    case .storedSize:
      let bytes = try integer(field, column)
      guard bytes >= 0, bytes <= Request.maximumSize else {
        throw LineError("stored_size must be between 0 and 2^48")
      }
      row.storedSize = bytes
    case .observed: row.observed = try memos.observed.value(field, parse: observed)
    case .urlLength: break
    case .vary:
      row.vary = true
      row.varyAll = field.count == 1 && field[0] == UInt8(ascii: "*")
    case .setCookie: row.setCookie = true
    case .authorization: row.authorization = true
    case .event: row.event = try memos.event.value(field, parse: event)
    }
  }

  /// The object id of a key text and what it says as a URL.
  private static func keyAndURL(_ field: UnsafeRawBufferPointer) throws(LineError) -> (UInt64, URLKey) {
    guard let key = KeyType.auto.key(field) else { throw LineError("empty key") }
    return (key, URLKey(parsing: field))
  }

  private static func observed(_ field: UnsafeRawBufferPointer) throws(LineError) -> ObservedOutcome {
    let text = text(field).lowercased()
    guard let outcome = ObservedOutcome.allCases.first(where: { $0.csvName == text }) else {
      throw LineError("observed '\(text)' is not one of hit, miss, client-hit")
    }
    return outcome
  }

  private static func operation(_ field: UnsafeRawBufferPointer) throws(LineError) -> Request.Operation {
    switch text(field).lowercased() {
    case "get", "read", "get_lease": return .get
    case "put", "set", "write", "set_lease": return .put
    case "delete", "del", "remove": return .delete
    case "event", "evt": return .event
    case "origin", "update": return .origin
    case let other: throw LineError("op '\(other)' is not one of get, put, delete, event, origin")
    }
  }

  private static func contentClass(_ field: UnsafeRawBufferPointer) throws(LineError) -> ContentClass {
    guard let value = ContentClass(name: text(field)) else {
      throw LineError("class '\(text(field))' is not data, image, voice, object or a MIME type")
    }
    return value
  }

  private static func event(_ field: UnsafeRawBufferPointer) throws(LineError) -> LifecycleEvent {
    guard let event = LifecycleEvent(name: text(field)) else {
      throw LineError(
        "event '\(text(field))' is not one of "
          + LifecycleEvent.allCases.dropFirst().map(\.name).joined(separator: ", "))
    }
    return event
  }
}

extension TraceFormat {
  /// `cachelab`: CacheLab's CSV with named columns and HTTP attributes.
  static let cacheLab = TraceFormat(
    name: "cachelab",
    summary: "CacheLab CSV: header with time,key,size + optional op, cost, ttl, class, version, HTTP headers, event",
    fileSuffixes: [".cachelab.csv"],
    traits: TraceTraits(hasTime: true, hasSize: true, hasAttributes: true),
    sniff: CacheLabParser.sniff
  ) { path, _ throws(TraceError) in
    // Parsing a row's headers costs about as much as an engine serving it: parse on a
    // background thread, a few batches ahead, so the two overlap.
    ReadAheadReader(try LineRecordReader(path: path, parser: CacheLabParser()), chunks: 4, chunkSize: 1 << 14)
  }
}

extension CacheLabParser {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText, let header = sample.lines.first else { return nil }
    let columns = header.split(separator: ",").map { CacheLabParser.Column(header: String($0)) }
    let required: Set<CacheLabParser.Column> = [.time, .key, .size]
    guard required.isSubset(of: Set(columns.compactMap { $0 })),
      columns.contains(where: { $0 != nil && !required.contains($0!) })
    else { return nil }
    return SniffVerdict(3, "a CacheLab header (time, key, size and HTTP or event columns)")
  }
}
