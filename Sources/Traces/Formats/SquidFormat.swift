import CacheCore

/// Squid's native `access.log` (`logformat squid`, src/cf.data.pre): `time elapsed client
/// CODE/status bytes method URL user HIERARCHY/peer type`, fields separated by runs of spaces
/// (elapsed is right-aligned), then with `log_mime_hdrs on` the request's and the reply's
/// headers in brackets. Each line is one ``HTTPRecord``: the time is the logged end minus the
/// elapsed milliseconds, the size the reply's Content-Length (else the bytes delivered, less
/// the reply's headers when logged), and the result code says what the cache did (see
/// Traces/README.md).
struct SquidParser: HTTPLineParser {

  func record(_ line: UnsafeRawBufferPointer, scratch: ByteScratch) throws(LineError) -> HTTPRecord? {
    if try isBlankText(line) { return nil }
    let blocks = Self.mimeBlocks(line)
    let fields = Self.fields(blocks.map { UnsafeRawBufferPointer(rebasing: line[..<$0.native]) } ?? line)
    var record = HTTPRecord()
    var headerBytes: Int64 = 0
    if let blocks {
      var request = HAREntry.HeaderFields()
      var reply = HAREntry.HeaderFields()
      Self.headers(blocks.request, into: &request)
      headerBytes = Self.headers(blocks.reply, into: &reply)
      record.take(response: reply, request: request)
      record.bodySize = record.contentLength
    }
    guard fields.count >= 10 else {
      throw LineError(
        "expected at least 10 fields (time elapsed client CODE/status bytes method URL user hierarchy type), found \(fields.count)"
      )
    }
    guard let logged = HTTPTime.epochSeconds(fields[0]) else {
      throw LineError("time '\(Self.text(fields[0]))' is not epoch seconds")
    }
    guard let elapsed = ByteParsing.unsigned(fields[1]), elapsed < 1 << 40 else {
      throw LineError("elapsed '\(Self.text(fields[1]))' is not a number of milliseconds")
    }
    record.time = max(0, logged - Int64(elapsed) * 1_000)
    let result = Self.text(fields[3])
    guard let slash = result.lastIndex(of: "/"), let status = Int(result[result.index(after: slash)...]), status < 1000
    else { throw LineError("result '\(result)' is not CODE/status") }
    record.status = status
    record.observed = Self.outcome(String(result[..<slash]))
    guard let bytes = ByteParsing.unsigned(fields[4]), bytes <= UInt64(Request.maximumSize) else {
      throw LineError("bytes '\(Self.text(fields[4]))' is not a byte count")
    }
    record.transferredBodySize = max(0, Int64(bytes) - headerBytes)
    record.method = Self.text(fields[5]).uppercased()
    record.url = HTTPText(borrowing: fields[6])
    if record.contentType == nil, fields[9].count != 1 || fields[9][0] != UInt8(ascii: "-") {
      record.contentType = HTTPText(borrowing: fields[9])
    }
    if record.observed != .upstreamHit { record.latency = Int64(elapsed) * 1_000 }
    return record
  }

  /// The line's fields, split at runs of spaces and tabs.
  static func fields(_ line: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer] {
    var fields: [UnsafeRawBufferPointer] = []
    var start = -1
    for index in 0...line.count {
      let blank = index == line.count || line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0D
      if blank {
        if start >= 0 { fields.append(UnsafeRawBufferPointer(rebasing: line[start..<index])) }
        start = -1
      } else if start < 0 {
        start = index
      }
    }
    return fields
  }

  static func text(_ field: UnsafeRawBufferPointer) -> String { String(decoding: field, as: UTF8.self) }

  /// With `log_mime_hdrs on` Squid ends a line with ` [request headers] [reply headers]`
  /// (src/log/FormatSquidNative.cc), each block escaped by `Format::QuoteMimeBlob`
  /// (src/format/Quoting.cc): CR and LF as `\r` and `\n`, a backslash doubled, and control
  /// bytes, bytes from 0x7F, `%`, `[` and `]` as `%xx` — so a block ends at its first `]`.
  /// Returns the length of the native fields before them and the two escaped blocks, or nil.
  static func mimeBlocks(_ line: UnsafeRawBufferPointer)
    -> (native: Int, request: UnsafeRawBufferPointer, reply: UnsafeRawBufferPointer)?
  {
    // The line reader has dropped a CRLF's CR; trailing blanks are passed over.
    let end = ByteParsing.trimmedEnd(line)
    guard end > 0, line[end - 1] == UInt8(ascii: "]") else { return nil }
    func opening(before limit: Int) -> Int? {
      var index = limit - 1
      while index >= 0, line[index] != UInt8(ascii: "[") { index -= 1 }
      return index >= 1 && line[index - 1] == 0x20 ? index : nil
    }
    guard let reply = opening(before: end - 1), reply >= 3, line[reply - 2] == UInt8(ascii: "]"),
      let request = opening(before: reply - 2)
    else { return nil }
    return (
      request - 1, UnsafeRawBufferPointer(rebasing: line[(request + 1)..<(reply - 2)]),
      UnsafeRawBufferPointer(rebasing: line[(reply + 1)..<(end - 1)])
    )
  }

  /// Unescapes a `log_mime_hdrs` block and adds its `Name: value` lines to `fields` (a status
  /// line is passed over); returns the block's length unescaped: the header bytes sent.
  @discardableResult
  static func headers(_ block: UnsafeRawBufferPointer, into fields: inout HAREntry.HeaderFields) -> Int64 {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(block.count)
    var index = 0
    while index < block.count {
      let byte = block[index]
      if byte == UInt8(ascii: "\\"), index + 1 < block.count {
        switch block[index + 1] {
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        default: bytes.append(block[index + 1])
        }
        index += 2
      } else if byte == UInt8(ascii: "%"), index + 2 < block.count,
        let high = LogFormatPattern.hexDigit(block[index + 1]), let low = LogFormatPattern.hexDigit(block[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(byte)
        index += 1
      }
    }
    for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), !line.starts(with: Array("HTTP/".utf8)) else {
        continue
      }
      let name = String(decoding: line[..<colon], as: UTF8.self)
      let value = line[(colon + 1)...].withUnsafeBytes { String(decoding: ByteParsing.trim($0), as: UTF8.self) }
      fields.add(name, value)
    }
    return Int64(bytes.count)
  }

  /// What a Squid result code says (src/LogTags.cc, `LogTags::isTcpHit`): the hits are
  /// TCP_HIT, TCP_MEM_HIT, TCP_IMS_HIT, TCP_INM_HIT, TCP_NEGATIVE_HIT, TCP_OFFLINE_HIT,
  /// TCP_REFRESH_UNMODIFIED and TCP_REFRESH_FAIL_OLD (and their older names and `_CF`
  /// forms); TCP_MISS, TCP_REFRESH_MODIFIED, TCP_REFRESH, TCP_CLIENT_REFRESH_MISS,
  /// TCP_SWAPFAIL_MISS and TCP_REFRESH_FAIL_ERR fetched from the origin; anything else
  /// (denied, tunnels, redirects, NONE_NONE) says nothing. `_ABORTED`, `_TIMEDOUT` and
  /// `_IGNORED` suffixes are dropped.
  static func outcome(_ code: String) -> ObservedOutcome {
    var tag = code.uppercased()
    while let suffix = ["_ABORTED", "_TIMEDOUT", "_IGNORED"].first(where: { tag.hasSuffix($0) }) {
      tag.removeLast(suffix.count)
    }
    if tag.hasPrefix("TCP_CF_") { tag = "TCP_" + tag.dropFirst("TCP_CF_".count) }
    switch tag {
    case "TCP_HIT", "TCP_MEM_HIT", "TCP_IMS_HIT", "TCP_INM_HIT", "TCP_NEGATIVE_HIT", "TCP_OFFLINE_HIT",
      "TCP_REFRESH_UNMODIFIED", "TCP_REFRESH_FAIL_OLD", "TCP_REFRESH_HIT", "TCP_REF_FAIL_HIT", "TCP_STALE_HIT":
      return .upstreamHit
    case "TCP_MISS", "TCP_REFRESH_MODIFIED", "TCP_REFRESH", "TCP_CLIENT_REFRESH_MISS", "TCP_SWAPFAIL_MISS",
      "TCP_REFRESH_FAIL_ERR", "TCP_REFRESH_MISS", "TCP_IMS_MISS":
      return .upstreamMiss
    default:
      return .unknown
    }
  }
}

extension TraceFormat {
  /// `squid`: Squid's native access.log.
  static let squid = TraceFormat(
    name: "squid",
    summary: "Squid native access.log: time elapsed client CODE/status bytes method URL user hierarchy type",
    parameters: [HTTPTraffic.reorderWindow],
    traits: HTTPTraffic.traits,
    sniff: SquidParser.sniff
  ) { path, parameters throws(TraceError) in
    TimeOrderedReader(try HTTPLineReader(path: path, parser: SquidParser()), parameters: parameters)
  }
}

extension SquidParser {
  /// How plausible `sample` is as a Squid log: every sampled line has epoch-millisecond time,
  /// elapsed milliseconds and a `CODE/status` result.
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.isText else { return nil }
    let lines = sample.leadingLines(20)
    guard !lines.isEmpty else { return nil }
    let fits = lines.allSatisfy { line in
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard parts.count >= 10, parts[0].contains("."), Double(parts[0]) != nil, UInt64(parts[1]) != nil,
        let slash = parts[3].lastIndex(of: "/")
      else { return false }
      return parts[3][..<slash].allSatisfy { $0.isUppercase || $0 == "_" }
        && UInt64(parts[3][parts[3].index(after: slash)...]) != nil
    }
    return fits ? SniffVerdict(3, "Squid native access.log lines (time elapsed client CODE/status …)") : nil
  }
}
