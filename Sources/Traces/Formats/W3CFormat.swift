import CacheCore

/// W3C extended logs, read through their `#Fields:` line (re-read wherever one appears):
/// CloudFront standard logs (tab-separated, 24-, 26- and 33-field layouts, values
/// URL-encoded) and IIS (space-separated). Each line is one ``HTTPRecord``; see
/// Traces/README.md for which field fills what.
struct W3CParser: HTTPLineParser {
  /// `time-taken` in milliseconds (IIS) rather than seconds (CloudFront).
  private var timeTakenInMilliseconds: Bool?
  private let timeTakenUnit: String
  private var software = ""
  private var columns: [Field?] = []
  private var decodesPercent = false

  /// The fields a cache needs, by their W3C names.
  enum Field: String {
    case date, time
    case method = "cs-method"
    case stem = "cs-uri-stem"
    case query = "cs-uri-query"
    case host = "cs(host)"
    case hostHeader = "x-host-header"
    case csHost = "cs-host"
    case proto = "cs-protocol"
    case status = "sc-status"
    case bytes = "sc-bytes"
    case contentLength = "sc-content-len"
    case contentType = "sc-content-type"
    case timeTaken = "time-taken"
    case resultType = "x-edge-result-type"
    case cacheControl = "sc(cache-control)"
  }

  init(parameters: Parameters) {
    timeTakenUnit = parameters.string("time-taken")
  }

  mutating func record(_ line: UnsafeRawBufferPointer, scratch: ByteScratch) throws(LineError) -> HTTPRecord? {
    if try isBlankText(line) { return nil }
    if line[0] == UInt8(ascii: "#") {
      directive(String(decoding: line, as: UTF8.self))
      return nil
    }
    guard !columns.isEmpty else { throw LineError("a record before any #Fields: directive") }
    let separator: UInt8 = line.contains(0x09) ? 0x09 : 0x20
    var values: [Field: UnsafeRawBufferPointer] = [:]
    var index = 0
    var start = 0
    for offset in 0...line.count where offset == line.count || line[offset] == separator {
      if index < columns.count, let field = columns[index] {
        values[field] = UnsafeRawBufferPointer(rebasing: line[start..<offset])
      }
      index += 1
      start = offset + 1
    }
    guard index >= columns.count else {
      throw LineError("expected \(columns.count) fields as #Fields: names them, found \(index)")
    }
    func text(_ field: Field) -> String? {
      guard let value = values[field], !value.isEmpty, !(value.count == 1 && value[0] == UInt8(ascii: "-")) else {
        return nil
      }
      let raw = String(decoding: value, as: UTF8.self)
      return decodesPercent ? Self.percentDecoded(raw) : raw
    }
    var record = HTTPRecord()
    guard let day = text(.date), let clock = text(.time) else { throw LineError("the record has no date and time") }
    guard
      let ended = (day + "T" + clock).utf8CString.withUnsafeBytes({ bytes in
        HTTPTime.iso8601(UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
      })
    else { throw LineError("date and time '\(day) \(clock)' are not a UTC time") }
    var taken: Int64?
    if let value = text(.timeTaken) {
      let milliseconds = timeTakenInMilliseconds ?? false
      var copy = value
      guard
        let parsed = copy.withUTF8({
          ByteParsing.microseconds(UnsafeRawBufferPointer($0), unit: milliseconds ? .ms : .s)
        })
      else { throw LineError("time-taken '\(value)' is not a duration") }
      taken = parsed
    }
    record.time = max(0, ended - (taken ?? 0))
    record.method = text(.method)?.uppercased() ?? ""
    record.url = HTTPText((text(.stem) ?? "") + (text(.query).map { "?" + $0 } ?? ""))
    record.host = HTTPText?(text(.hostHeader) ?? text(.host) ?? text(.csHost))
    record.scheme = HTTPText?(text(.proto))
    if let value = text(.status) {
      guard let status = Int(value), status >= 0, status < 1000 else {
        throw LineError("sc-status '\(value)' is not an HTTP status")
      }
      record.status = status
    }
    if let value = text(.bytes) {
      guard let bytes = Int64(value), bytes >= 0 else { throw LineError("sc-bytes '\(value)' is not a byte count") }
      record.transferredBodySize = bytes
    }
    if let value = text(.contentLength) { record.contentLength = Int64(value) }
    record.contentType = HTTPText?(text(.contentType))
    record.cacheControl = HTTPText?(text(.cacheControl))
    if let value = text(.resultType) { record.observed = Self.outcome(cloudFront: value) }
    if record.observed != .upstreamHit { record.latency = taken }
    return record
  }

  /// Reads `#Fields:` (the columns from now on) and `#Software:` (which decides the unit of
  /// `time-taken` when the parameter leaves it to the log).
  private mutating func directive(_ line: String) {
    let body = line.dropFirst()
    if body.lowercased().hasPrefix("software:") { software = String(body.dropFirst("software:".count)) }
    guard body.lowercased().hasPrefix("fields:") else { return }
    let names = body.dropFirst("fields:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
      $0.lowercased()
    }
    columns = names.map { Field(rawValue: $0) }
    let cloudFront = names.contains { $0.hasPrefix("x-edge-") }
    decodesPercent = cloudFront
    switch timeTakenUnit {
    case "ms": timeTakenInMilliseconds = true
    case "s": timeTakenInMilliseconds = false
    default:
      timeTakenInMilliseconds =
        !cloudFront
        && (software.contains("Microsoft") || names.contains("s-sitename") || names.contains("sc-win32-status"))
    }
  }

  /// CloudFront's `x-edge-result-type`: Hit and RefreshHit were served from the edge cache
  /// (RefreshHit after a conditional check with the origin); Miss went to the origin; the
  /// errors, limits and redirects say nothing.
  static func outcome(cloudFront value: String) -> ObservedOutcome {
    switch value.lowercased() {
    case "hit", "refreshhit", "originshieldhit": .upstreamHit
    case "miss": .upstreamMiss
    default: .unknown
    }
  }

  /// `%XX` escapes decoded (CloudFront writes spaces, controls and some punctuation so).
  static func percentDecoded(_ text: String) -> String {
    guard text.contains("%") else { return text }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = LogFormatPattern.hexDigit(bytes[index + 1]), let low = LogFormatPattern.hexDigit(bytes[index + 2])
      {
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension TraceFormat {
  /// `w3c`: W3C extended logs (CloudFront, IIS).
  static let w3c = TraceFormat(
    name: "w3c",
    aliases: ["cloudfront", "iis"],
    summary: "W3C extended log read through its #Fields: line (CloudFront standard logs, IIS)",
    parameters: [
      ParameterSpec(
        "time-taken", default: "auto", .choice(["auto", "s", "ms"]),
        help: "unit of time-taken: auto (ms for IIS, s for CloudFront and others)"),
      HTTPTraffic.reorderWindow,
    ],
    traits: HTTPTraffic.traits,
    sniff: W3CParser.sniff
  ) { path, parameters throws(TraceError) in
    TimeOrderedReader(
      try HTTPLineReader(path: path, parser: W3CParser(parameters: parameters)), parameters: parameters)
  }
}

extension W3CParser {
  /// A W3C log names its fields in a `#Fields:` directive near the top.
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText else { return nil }
    let directives = sample.lines.prefix(8).prefix { $0.hasPrefix("#") }
    guard directives.contains(where: { $0.lowercased().hasPrefix("#fields:") }) else { return nil }
    return SniffVerdict(3, "a W3C #Fields: directive")
  }
}
