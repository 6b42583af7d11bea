import CacheCore

/// Web server access logs: NCSA common and combined (nginx's and Apache's defaults) and any
/// nginx `log_format` (`access-log:log-format='…'`). Each line is one ``HTTPRecord``; see
/// ``HTTPTraffic`` for what it becomes and Traces/README.md for which variable fills what.
struct AccessLogParser: HTTPLineParser {
  private let requested: String
  private var pattern: LogFormatPattern?

  init(parameters: Parameters) {
    requested = parameters.string("log-format")
  }

  /// The pattern `name` stands for: `common`, `combined` or an nginx `log_format` string.
  static func pattern(_ name: String) throws(LineError) -> LogFormatPattern {
    switch name.lowercased() {
    case "combined": try LogFormatPattern(LogFormatPattern.combined, allowsTrailingText: true)
    case "common": try LogFormatPattern(LogFormatPattern.common, allowsTrailingText: true)
    default: try LogFormatPattern(name)
    }
  }

  mutating func begin(_ lines: LineReader) throws(TraceError) {
    guard requested.lowercased() == "auto" else {
      pattern = try Self.compiled(requested, lines.path)
      return
    }
    // The first line that is not blank decides between combined and common.
    while let line = try lines.nextLine() {
      guard !ByteParsing.trim(line).isEmpty else { continue }
      for name in ["combined", "common"] {
        let candidate = try Self.compiled(name, lines.path)
        if (try? candidate.match(line, { _, _ throws(LineError) in })) != nil {
          pattern = candidate
          lines.pushBack()
          return
        }
      }
      throw TraceError(
        .malformedRecord, path: lines.path, record: lines.lineNumber,
        "the line is neither the combined nor the common log format; give the server's log_format as "
          + "--format \"access-log:log-format='…'\"")
    }
  }

  /// Refuses a `log-format` that does not compile, as a usage error before any file is read.
  @Sendable static func check(_ parameters: Parameters) throws(ConfigurationError) {
    let requested = parameters.string("log-format")
    guard requested.lowercased() != "auto" else { return }
    do throws(LineError) {
      _ = try pattern(requested)
    } catch {
      throw ConfigurationError(.invalidValue, "access-log: \(error.message)")
    }
  }

  /// The pattern `name` stands for, or an error naming the file whose format it was to read.
  private static func compiled(_ name: String, _ path: String) throws(TraceError) -> LogFormatPattern {
    do throws(LineError) {
      return try pattern(name)
    } catch {
      throw TraceError(.unsupported, path: path, error.message)
    }
  }

  /// Unescaping only shortens a field, and `$uri?$args` is at most the line again.
  func scratchNeeded(forLineOf length: Int) -> Int { 2 * length + 1 }

  func record(_ line: UnsafeRawBufferPointer, scratch: ByteScratch) throws(LineError) -> HTTPRecord? {
    if try isBlankText(line) { return nil }
    guard let pattern else { return nil }
    var record = HTTPRecord()
    var logged: Int64?
    var requestTime: Int64?
    var path: HTTPText?
    var arguments: HTTPText?
    func text(_ value: UnsafeRawBufferPointer) -> HTTPText { LogFormatPattern.unescaped(value, into: scratch) }
    try pattern.match(line) { (field, value) throws(LineError) in
      if value.count == 1, value[0] == UInt8(ascii: "-"), field != .bodyBytesSent { return }
      switch field {
      case .timeLocal: logged = try Self.time(HTTPTime.commonLog(value), value, "$time_local")
      case .timeISO8601: logged = try Self.time(HTTPTime.iso8601(value), value, "$time_iso8601")
      case .msec: logged = try Self.time(HTTPTime.epochSeconds(value), value, "$msec")
      case .request:
        if let (method, target) = Self.requestLine(value) {
          record.method = HTTPRecord.method(method)
          record.url = text(target)
        } else {
          record.method = "malformed request line"
        }
      case .method: record.method = HTTPRecord.method(value)
      case .requestURI: record.url = text(value)
      case .uri: path = text(value)
      case .arguments: arguments = text(value)
      case .host: record.host = text(value)
      case .scheme: record.scheme = HTTPText(borrowing: value)
      case .status:
        guard let status = ByteParsing.unsigned(value), status < 1000 else {
          throw LineError("status '\(String(decoding: value, as: UTF8.self))' is not an HTTP status")
        }
        record.status = Int(status)
      case .bodyBytesSent:
        if value.count == 1, value[0] == UInt8(ascii: "-") {
          record.transferredBodySize = 0
        } else {
          guard let bytes = ByteParsing.unsigned(value), bytes <= UInt64(Request.maximumSize) else {
            throw LineError("body size '\(String(decoding: value, as: UTF8.self))' is not a byte count")
          }
          record.transferredBodySize = Int64(bytes)
        }
      case .requestTime: requestTime = try Self.seconds(value, "$request_time")
      case .upstreamResponseTime: record.latency = try Self.upstreamTime(value)
      case .upstreamCacheStatus: record.observed = Self.outcome(nginx: value)
      case .header(let header): Self.apply(header, text(value), to: &record)
      case .ignored: break
      }
    }
    if record.url.isEmpty, let path {
      record.url = path.withBytes { path in
        guard let arguments else { return HTTPText(borrowing: path) }
        return arguments.withBytes { arguments in
          withUnsafeBytes(of: UInt8(ascii: "?")) { mark in HTTPText(borrowing: scratch.append(path, mark, arguments)) }
        }
      }
    }
    guard let logged else { throw LineError("the line has no time ($time_local, $time_iso8601 or $msec)") }
    // nginx and Apache log when the response is done: the request arrived $request_time earlier.
    record.time = max(0, logged - (requestTime ?? 0))
    if record.latency == nil, record.observed != .upstreamHit, let requestTime { record.latency = requestTime }
    return record
  }

  /// The method and target of a request line `METHOD SP target [SP HTTP/x]`, or nil.
  static func requestLine(_ value: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer)? {
    guard let space = value.firstIndex(of: 0x20), space > 0 else { return nil }
    var start = space + 1
    while start < value.count, value[start] == 0x20 { start += 1 }
    var end = value.count
    while end > start, value[end - 1] == 0x20 { end -= 1 }
    if let last = value[start..<end].lastIndex(of: 0x20) {
      end = last
      while end > start, value[end - 1] == 0x20 { end -= 1 }
    }
    guard end > start else { return nil }
    return (UnsafeRawBufferPointer(rebasing: value[..<space]), UnsafeRawBufferPointer(rebasing: value[start..<end]))
  }

  private static func time(_ parsed: Int64?, _ value: UnsafeRawBufferPointer, _ name: String) throws(LineError)
    -> Int64
  {
    guard let parsed else { throw LineError("\(name) '\(String(decoding: value, as: UTF8.self))' is not a time") }
    return parsed
  }

  private static func seconds(_ value: UnsafeRawBufferPointer, _ name: String) throws(LineError) -> Int64 {
    guard let micros = ByteParsing.microseconds(value, unit: .s) else {
      throw LineError("\(name) '\(String(decoding: value, as: UTF8.self))' is not a number of seconds")
    }
    return micros
  }

  /// `$upstream_response_time`: one time per upstream tried (`0.010, 0.020 : 0.030`), summed;
  /// `-` entries (no response) count nothing.
  private static func upstreamTime(_ value: UnsafeRawBufferPointer) throws(LineError) -> Int64? {
    // One upstream, one number: the common case, read in place.
    if let micros = ByteParsing.microseconds(value, unit: .s) { return micros }
    if value.count == 1, value[0] == UInt8(ascii: "-") { return nil }
    var total: Int64 = 0
    var any = false
    for part in String(decoding: value, as: UTF8.self).split(whereSeparator: { $0 == "," || $0 == ":" }) {
      var text = String(part.trimmingSpaces())
      guard text != "-" else { continue }
      guard let micros = text.withUTF8({ ByteParsing.microseconds(UnsafeRawBufferPointer($0), unit: .s) }) else {
        throw LineError("$upstream_response_time '\(String(decoding: value, as: UTF8.self))' is not a list of seconds")
      }
      total += micros
      any = true
    }
    return any ? total : nil
  }

  /// `$upstream_cache_status` (ngx_http_upstream.c): HIT, STALE, UPDATING and REVALIDATED
  /// were answered from the cache; MISS, EXPIRED and BYPASS went to the origin.
  static func outcome(nginx value: UnsafeRawBufferPointer) -> ObservedOutcome {
    // nginx writes these upper case; compared by bytes, folding ASCII case, with no String.
    func equals(_ literal: StaticString) -> Bool { ByteParsing.equalsIgnoringCase(value, literal) }
    if equals("HIT") || equals("STALE") || equals("UPDATING") || equals("REVALIDATED") { return .upstreamHit }
    if equals("MISS") || equals("EXPIRED") || equals("BYPASS") { return .upstreamMiss }
    return .unknown
  }

  private static func apply(_ header: LogFormatPattern.Header, _ value: HTTPText, to record: inout HTTPRecord) {
    switch header {
    case .cacheControl: record.cacheControl = value
    case .etag: record.etag = value
    case .lastModified: record.lastModified = value
    case .expires: record.expires = value
    case .contentType: record.contentType = value
    case .contentLength:
      record.contentLength = value.withBytes { ByteParsing.unsigned(ByteParsing.trim($0)) }.flatMap {
        Int64(exactly: $0)
      }
    case .age: record.age = value
    case .vary: record.vary = value
    case .date: record.date = value
    case .cacheStatus:
      if record.observed == .unknown { record.observed = HTTPCacheHeaders.cacheStatus(value.string) }
    case .xCache, .xCacheStatus, .cfCacheStatus:
      if record.observed == .unknown { record.observed = HTTPCacheHeaders.outcome(value.string) }
    case .wwwAuthenticate, .authorization: record.authorization = !value.isEmpty
    case .range: break
    }
  }
}

extension TraceFormat {
  /// `access-log`: nginx and Apache access logs.
  static let accessLog = TraceFormat(
    name: "access-log",
    aliases: ["nginx", "apache", "clf"],
    summary: "web server access log: NCSA common or combined, or any nginx log_format (log-format='…')",
    parameters: [
      ParameterSpec(
        "log-format", default: "auto", .text,
        help: "auto (combined or common, from the first line), common, combined, or the server's log_format in quotes"),
      HTTPTraffic.reorderWindow,
    ],
    fileSuffixes: ["access.log", "access_log"],
    traits: HTTPTraffic.traits,
    sniff: AccessLogParser.sniff,
    check: AccessLogParser.check
  ) { path, parameters throws(TraceError) in
    TimeOrderedReader(
      try HTTPLineReader(path: path, parser: AccessLogParser(parameters: parameters)), parameters: parameters)
  }
}

extension AccessLogParser {
  /// How plausible `sample` is as an access log: its first lines fit combined or common.
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText else { return nil }
    let lines = sample.leadingLines(20)
    guard !lines.isEmpty else { return nil }
    for name in ["combined", "common"] {
      guard let pattern = try? pattern(name) else { continue }
      let fits = lines.allSatisfy { line in
        var text = String(line)
        return text.withUTF8 { bytes in
          var time: Int64?
          let matched =
            (try? pattern.match(UnsafeRawBufferPointer(bytes)) { (field, value) throws(LineError) in
              if field == .timeLocal { time = HTTPTime.commonLog(value) }
            }) != nil
          return matched && time != nil
        }
      }
      if fits { return SniffVerdict(3, "lines in the \(name) log format") }
    }
    return nil
  }
}
