import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An nginx `log_format` string compiled for reading: the literal text and the variables in
/// the order the server writes them. A variable's value runs to the next occurrence of the
/// literal after it (past quotes escaped by a backslash), or to the end of the line.
///
/// Variables that say something about the request (time, request line, host, status, sizes,
/// timings, cache status, response headers) fill an ``HTTPRecord``; any other variable is
/// read and ignored. Compiling is O(format length); matching a line is one pass over it.
struct LogFormatPattern: Sendable {
  /// nginx's predefined `combined` format (also Apache's `combined`).
  static let combined =
    #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#
  /// The Common Log Format (Apache `common`; nginx's `combined` without its last two fields).
  static let common = #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent"#

  /// What a variable's value means.
  enum Field: Equatable, Sendable {
    case timeLocal, timeISO8601, msec
    case request, method, requestURI, uri, arguments, host, scheme
    case status, bodyBytesSent, requestTime, upstreamResponseTime, upstreamCacheStatus
    case header(Header)
    case ignored
  }

  /// Response and request headers a log can carry (`$sent_http_*`, `$upstream_http_*`, `$http_*`).
  enum Header: String, Sendable, CaseIterable {
    case cacheControl = "cache_control"
    case etag
    case lastModified = "last_modified"
    case expires
    case contentType = "content_type"
    case contentLength = "content_length"
    case age, vary, date
    case cacheStatus = "cache_status"
    case xCache = "x_cache"
    case xCacheStatus = "x_cache_status"
    case cfCacheStatus = "cf_cache_status"
    case wwwAuthenticate = "www_authenticate"
    case authorization, range
  }

  enum Piece: Sendable {
    case literal([UInt8])
    case variable(Field, name: String)
  }

  let pieces: [Piece]
  /// The pieces flattened for matching: each literal, and each variable with the literal
  /// that ends it (empty: the value runs to the end of the line), as ranges of ``literals``.
  private let steps: [Step]
  private let storage: LiteralStorage
  private var literals: UnsafeRawBufferPointer { storage.bytes }

  private struct Step: Sendable {
    var field: Field?
    var literal: Range<Int>
  }

  /// The literals' bytes, freed with the last copy of the pattern.
  private final class LiteralStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(_ source: [UInt8]) {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 1)
      buffer.copyBytes(from: source)
      bytes = UnsafeRawBufferPointer(buffer)
    }

    deinit { bytes.deallocate() }
  }
  /// The format as given.
  let text: String
  /// Whether text after the last piece is allowed (the predefined formats, which setups often
  /// extend at the end).
  let allowsTrailingText: Bool

  /// Compiles `format`.
  ///
  /// - Throws: a message for a `$` without a name, an unclosed `${`, or two variables with no
  ///   text between them (their values could not be told apart).
  init(_ format: String, allowsTrailingText: Bool = false) throws(LineError) {
    var pieces: [Piece] = []
    var literal: [UInt8] = []
    let bytes = Array(format.utf8)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "$") else {
        literal.append(bytes[index])
        index += 1
        continue
      }
      var start = index + 1
      var end = start
      if start < bytes.count, bytes[start] == UInt8(ascii: "{") {
        start += 1
        end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "}") { end += 1 }
        guard end < bytes.count else { throw LineError("log format: '${' without a closing '}'") }
        index = end + 1
      } else {
        while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
        index = end
      }
      guard end > start else {
        throw LineError("log format: '$' at offset \(start - 1) is not followed by a variable name")
      }
      let name = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
      if !literal.isEmpty {
        pieces.append(.literal(literal))
        literal = []
      } else if case .variable(_, let previous)? = pieces.last {
        throw LineError(
          "log format: $\(previous) and $\(name) have no text between them, so their values cannot be told apart")
      }
      pieces.append(.variable(Self.field(name), name: name))
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    self.pieces = pieces
    var flat: [UInt8] = []
    var steps: [Step] = []
    for (number, piece) in pieces.enumerated() {
      switch piece {
      case .literal(let literal):
        steps.append(Step(field: nil, literal: flat.count..<(flat.count + literal.count)))
        flat += literal
      case .variable(let field, _):
        var next: [UInt8] = []
        if number + 1 < pieces.count, case .literal(let literal) = pieces[number + 1] { next = literal }
        steps.append(Step(field: field, literal: flat.count..<(flat.count + next.count)))
        flat += next
      }
    }
    self.steps = steps
    storage = LiteralStorage(flat)
    self.text = format
    self.allowsTrailingText = allowsTrailingText
  }

  static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
  }

  /// What the nginx variable `name` means for a cache.
  static func field(_ name: String) -> Field {
    switch name {
    case "time_local": return .timeLocal
    case "time_iso8601": return .timeISO8601
    case "msec": return .msec
    case "request": return .request
    case "request_method": return .method
    case "request_uri": return .requestURI
    case "uri", "document_uri": return .uri
    case "args", "query_string": return .arguments
    case "host", "http_host", "server_name": return .host
    case "scheme": return .scheme
    case "status": return .status
    case "body_bytes_sent": return .bodyBytesSent
    case "request_time": return .requestTime
    case "upstream_response_time": return .upstreamResponseTime
    case "upstream_cache_status": return .upstreamCacheStatus
    default:
      for prefix in ["sent_http_", "upstream_http_", "http_"] where name.hasPrefix(prefix) {
        if let header = Header(rawValue: String(name.dropFirst(prefix.count))) { return .header(header) }
      }
      return .ignored
    }
  }

  /// The variables' values in `line`, in order, each as a range of it; throws where the line
  /// departs from the format.
  func match(_ line: UnsafeRawBufferPointer, _ visit: (Field, UnsafeRawBufferPointer) throws(LineError) -> Void)
    throws(LineError)
  {
    var cursor = 0
    for step in steps {
      let literal = UnsafeRawBufferPointer(rebasing: literals[step.literal])
      guard let field = step.field else {
        guard Self.hasPrefix(line, at: cursor, literal) else {
          throw LineError(
            "expected '\(String(decoding: literal, as: UTF8.self))' at column \(cursor + 1) (log format: \(text))")
        }
        cursor += literal.count
        continue
      }
      var end = line.count
      if !literal.isEmpty {
        guard let found = Self.find(literal, in: line, from: cursor) else {
          throw LineError(
            "expected '\(String(decoding: literal, as: UTF8.self))' after column \(cursor + 1) (log format: \(text))")
        }
        end = found
      }
      try visit(field, UnsafeRawBufferPointer(rebasing: line[cursor..<end]))
      cursor = end
    }
    guard cursor == line.count || allowsTrailingText else {
      throw LineError("unexpected text after column \(cursor) (log format: \(text))")
    }
  }

  static func hasPrefix(_ line: UnsafeRawBufferPointer, at offset: Int, _ literal: UnsafeRawBufferPointer) -> Bool {
    guard offset + literal.count <= line.count else { return false }
    // Format literals are a few bytes (` "`, `" `): compared in place rather than by a call.
    for index in 0..<literal.count where line[offset + index] != literal[index] { return false }
    return true
  }

  /// The first offset at or after `start` where `literal` occurs, skipping a quote that a
  /// backslash escapes (Apache writes `\"` inside quoted fields).
  static func find(_ literal: UnsafeRawBufferPointer, in line: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard let first = literal.first else { return start }
    var offset = start
    while offset + literal.count <= line.count {
      // The literal's first byte is found, then the rest compared.
      guard let found = ByteParsing.firstIndex(of: first, in: line, from: offset, to: line.count - literal.count + 1)
      else { return nil }
      offset = found
      if hasPrefix(line, at: offset, literal) {
        var backslashes = 0
        while offset - backslashes - 1 >= start, line[offset - backslashes - 1] == UInt8(ascii: "\\") {
          backslashes += 1
        }
        if first != UInt8(ascii: "\"") || backslashes % 2 == 0 { return offset }
      }
      offset += 1
    }
    return nil
  }

  /// A logged value as text: nginx's `\xHH` escapes and Apache's `\"` and `\\` decoded.
  static func unescaped(_ value: UnsafeRawBufferPointer) -> String {
    guard let base = value.baseAddress, memchr(base, 0x5C, value.count) != nil else {
      return String(decoding: value, as: UTF8.self)
    }
    // Unescaping only shortens: write into the string's own storage.
    return String(unsafeUninitializedCapacity: value.count) { unescape(value, into: UnsafeMutableRawBufferPointer($0)) }
  }

  /// The same, borrowing `value` when it has no escape, else unescaped into `scratch` (which
  /// must have room for `value.count` more bytes).
  static func unescaped(_ value: UnsafeRawBufferPointer, into scratch: ByteScratch) -> HTTPText {
    guard let base = value.baseAddress, memchr(base, 0x5C, value.count) != nil else {
      return HTTPText(borrowing: value)
    }
    return HTTPText(borrowing: scratch.append(upTo: value.count) { unescape(value, into: $0) })
  }

  /// Writes `value` unescaped into `out` (at least as long); returns how many bytes it wrote.
  private static func unescape(_ value: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
    var index = 0
    var written = 0
    while index < value.count {
      var byte = value[index]
      index += 1
      if byte == UInt8(ascii: "\\"), index < value.count {
        let next = value[index]
        if next == UInt8(ascii: "x"), index + 2 < value.count, let high = hexDigit(value[index + 1]),
          let low = hexDigit(value[index + 2])
        {
          byte = high << 4 | low
          index += 3
        } else if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") {
          byte = next
          index += 1
        }
      }
      out[written] = byte
      written += 1
    }
    return written
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}
