import CacheCore

/// A pull reader of JSON (RFC 8259) over a ``ChunkedFile``: the caller walks objects and
/// arrays, keeps the values it wants and skips the rest — strings of any length are skipped
/// without being held, so memory stays bounded by the longest kept value. Errors carry the
/// line and column. Nesting is walked without recursion when skipping.
struct JSONStream {
  let file: ChunkedFile
  private(set) var line = 1
  private var lineStart: Int64 = 0
  private var consumed: Int64 = 0
  /// Longest string kept (a longer one is an error; skipped strings have no limit).
  let maximumKept: Int
  /// The bytes of the string being kept, reused from one string to the next.
  private var scratch: [UInt8] = []
  /// The bytes of the number being read (kept: no allocation per number).
  private var numberBytes: [UInt8] = []

  init(_ file: ChunkedFile, maximumKept: Int = 1 << 20) {
    self.file = file
    self.maximumKept = maximumKept
  }

  /// Why the text is not the JSON expected, and where.
  struct Failure: Error {
    var line: Int
    var column: Int64
    var message: String
  }

  func failure(_ message: String) -> Failure { Failure(line: line, column: consumed - lineStart + 1, message: message) }

  /// The next byte, without consuming it; nil at the end of the file.
  mutating func peekByte() throws(TraceError) -> UInt8? {
    if file.available == 0 {
      guard try file.refill() else { return nil }
    }
    return file.cursor.load(as: UInt8.self)
  }

  mutating func advance() {
    if file.cursor.load(as: UInt8.self) == 0x0A {
      line += 1
      lineStart = consumed + 1
    }
    file.start += 1
    consumed += 1
  }

  /// Skips whitespace and returns the next byte (not consumed); nil at the end.
  mutating func next() throws(TraceError) -> UInt8? {
    while let byte = try peekByte() {
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
      advance()
    }
    return nil
  }

  /// Consumes `byte` after whitespace, or fails naming `what` was expected.
  mutating func expect(_ byte: UInt8, _ what: String) throws(JSONStreamError) {
    guard try peekValue() == byte else {
      throw .syntax(failure("expected \(what)\(try describeNext())"))
    }
    advance()
  }

  /// `, found 'x'` or `, found the end of the file`, for messages.
  mutating func describeNext() throws(JSONStreamError) -> String {
    guard let byte = try rawByte() else {
      return ", found the end of the file (is it truncated?)"
    }
    return byte >= 0x20 && byte < 0x7F ? ", found '\(Character(UnicodeScalar(byte)))'" : ", found byte \(byte)"
  }

  /// The next byte as it is (whitespace included), not consumed; nil at the end.
  mutating func rawByte() throws(JSONStreamError) -> UInt8? {
    try wrapped { (stream: inout JSONStream) throws(TraceError) in try stream.peekByte() }
  }

  private mutating func wrapped<T>(_ body: (inout JSONStream) throws(TraceError) -> T) throws(JSONStreamError) -> T {
    do throws(TraceError) {
      return try body(&self)
    } catch {
      throw .file(error)
    }
  }

  /// Calls `member` with each key of the object that starts here; `member` must consume the
  /// value (read it or ``skipValue()``).
  mutating func object(_ member: (inout JSONStream, String) throws(JSONStreamError) -> Void)
    throws(JSONStreamError)
  {
    try expect(UInt8(ascii: "{"), "'{'")
    var first = true
    while let key = try nextKey(first: first) {
      first = false
      try member(&self, key)
    }
  }

  /// Calls `element` for each element of the array that starts here; `element` must consume it.
  mutating func array(_ element: (inout JSONStream) throws(JSONStreamError) -> Void) throws(JSONStreamError) {
    try expect(UInt8(ascii: "["), "'['")
    var first = true
    while try nextElement(first: first) {
      first = false
      try element(&self)
    }
  }

  /// After `{` or a member's value: the next key (its `:` consumed), or nil at `}` (consumed).
  /// `first` tells whether the object was just opened (no comma expected).
  mutating func nextKey(first: Bool) throws(JSONStreamError) -> String? {
    let byte = try peekValue()
    if byte == UInt8(ascii: "}") {
      advance()
      return nil
    }
    if !first {
      guard byte == UInt8(ascii: ",") else {
        throw .syntax(failure("expected ',' or '}' in an object\(try describeNext())"))
      }
      advance()
    }
    let key = try string()
    try expect(UInt8(ascii: ":"), "':' after a key")
    return key
  }

  /// After `[` or an element: whether another element follows (its comma consumed); false at
  /// `]` (consumed). `first` tells whether the array was just opened.
  mutating func nextElement(first: Bool) throws(JSONStreamError) -> Bool {
    let byte = try peekValue()
    if byte == UInt8(ascii: "]") {
      advance()
      return false
    }
    if !first {
      guard byte == UInt8(ascii: ",") else {
        throw .syntax(failure("expected ',' or ']' in an array\(try describeNext())"))
      }
      advance()
    }
    return true
  }

  /// What the next value is: `{`, `[`, `"`, a digit or `-`, `t`, `f`, `n` (nil at the end).
  mutating func peekValue() throws(JSONStreamError) -> UInt8? {
    try wrapped { (stream: inout JSONStream) throws(TraceError) in try stream.next() }
  }

  /// A string value, decoded (escapes, surrogate pairs); at most ``maximumKept`` bytes.
  mutating func string() throws(JSONStreamError) -> String {
    var bytes = scratch
    scratch = []
    bytes.removeAll(keepingCapacity: true)
    defer { scratch = bytes }
    try scanString(keep: &bytes, keeping: true)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The string if the value is one, nil (consumed) for null; any other value is an error.
  mutating func optionalString() throws(JSONStreamError) -> String? {
    if try peekValue() == UInt8(ascii: "n") {
      try literal()
      return nil
    }
    return try string()
  }

  private mutating func scanString(keep bytes: inout [UInt8], keeping: Bool) throws(JSONStreamError) {
    try expect(UInt8(ascii: "\""), "a string")
    while true {
      // The run of plain bytes already in the buffer, taken at once (no line break can be
      // inside a string: control bytes are refused below).
      let available = file.available
      if available > 0 {
        let base = file.cursor
        var run = 0
        while run < available {
          let byte = base.load(fromByteOffset: run, as: UInt8.self)
          if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
          run += 1
        }
        if run > 0 {
          if keeping {
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: base, count: run))
            if bytes.count > maximumKept {
              throw .syntax(failure("a string longer than \(maximumKept >> 20) MiB where a short value was expected"))
            }
          }
          file.start += run
          consumed += Int64(run)
        }
      }
      guard let byte = try rawByte() else {
        throw .syntax(failure("unterminated string (is the file truncated?)"))
      }
      if byte == UInt8(ascii: "\"") {
        advance()
        return
      }
      if byte < 0x20 { throw .syntax(failure("control byte \(byte) in a string")) }
      advance()
      if byte == UInt8(ascii: "\\") {
        guard let escape = try rawByte()
        else {
          throw .syntax(failure("unterminated string (is the file truncated?)"))
        }
        advance()
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): if keeping { bytes.append(escape) }
        case UInt8(ascii: "b"): if keeping { bytes.append(0x08) }
        case UInt8(ascii: "f"): if keeping { bytes.append(0x0C) }
        case UInt8(ascii: "n"): if keeping { bytes.append(0x0A) }
        case UInt8(ascii: "r"): if keeping { bytes.append(0x0D) }
        case UInt8(ascii: "t"): if keeping { bytes.append(0x09) }
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar) {
            try expect(UInt8(ascii: "\\"), "the low half of a surrogate pair")
            try expect(UInt8(ascii: "u"), "the low half of a surrogate pair")
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw .syntax(failure("a lone high surrogate")) }
            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
          }
          if keeping {
            let character = UnicodeScalar(scalar) ?? "\u{FFFD}"
            bytes.append(contentsOf: Array(String(character).utf8))
          }
        default: throw .syntax(failure("invalid escape '\\\(Character(UnicodeScalar(escape)))'"))
        }
      } else if keeping {
        bytes.append(byte)
      }
      if keeping, bytes.count > maximumKept {
        throw .syntax(failure("a string longer than \(maximumKept >> 20) MiB where a short value was expected"))
      }
    }
  }

  private mutating func hex4() throws(JSONStreamError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = try rawByte(),
        let digit = LogFormatPattern.hexDigit(byte)
      else { throw .syntax(failure("\\u needs four hex digits")) }
      advance()
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// A number value (validated against the grammar as Double's parser reads it). Up to 15
  /// digits with at most one point are converted exactly without a String; others are parsed.
  mutating func numberValue() throws(JSONStreamError) -> Double {
    numberBytes.removeAll(keepingCapacity: true)
    _ = try peekValue()
    while let byte = try rawByte(),
      (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B || byte == 0x2E || byte | 0x20 == 0x65
    {
      numberBytes.append(byte)
      advance()
      guard numberBytes.count < 64 else { throw .syntax(failure("a number longer than 64 characters")) }
    }
    if let value = Self.simpleDecimal(numberBytes) { return value }
    guard numberBytes.first != UInt8(ascii: "+"), let value = Double(String(decoding: numberBytes, as: UTF8.self))
    else { throw .syntax(failure("expected a number\(try describeNext())")) }
    return value
  }

  /// `-?digits(.digits)?` with at most 15 digits, exactly (both parts are exact doubles, so
  /// one division rounds as a parser does); nil for any other form.
  static func simpleDecimal(_ bytes: [UInt8]) -> Double? {
    var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
    let negative = index == 1
    var mantissa: Int64 = 0
    var digits = 0
    var fractionDigits = -1
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "."), fractionDigits < 0, digits > 0 {
        fractionDigits = 0
        continue
      }
      let digit = byte &- 0x30
      guard digit < 10, digits < 15 else { return nil }
      mantissa = mantissa * 10 + Int64(digit)
      digits += 1
      if fractionDigits >= 0 { fractionDigits += 1 }
    }
    guard digits > 0, fractionDigits != 0 else { return nil }
    let value = Double(mantissa) / powersOfTen[max(fractionDigits, 0)]
    return negative ? -value : value
  }

  private static let powersOfTen: [Double] = (0...15).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  /// A number value, or nil (consumed) for null.
  mutating func number() throws(JSONStreamError) -> Double? {
    if try peekValue() == UInt8(ascii: "n") {
      try literal()
      return nil
    }
    guard try peekValue() != UInt8(ascii: "\"") else {
      // Some producers quote numbers; accept a numeric string.
      let text = try string()
      guard let value = Double(text) else { throw .syntax(failure("expected a number, found the string \"\(text)\"")) }
      return value
    }
    return try numberValue()
  }

  /// `true`, `false` or `null`: the boolean, or nil for null.
  @discardableResult
  mutating func literal() throws(JSONStreamError) -> Bool? {
    for (word, value) in [("true", true as Bool?), ("false", false), ("null", nil)] {
      if try peekValue() == word.utf8.first {
        for expected in word.utf8 {
          guard try rawByte() == expected
          else {
            throw .syntax(failure("expected '\(word)'\(try describeNext())"))
          }
          advance()
        }
        return value
      }
    }
    throw .syntax(failure("expected a value\(try describeNext())"))
  }

  /// Consumes one value of any kind, nested ones included, keeping nothing. O(its length);
  /// memory: one flag per level of nesting (at most 10,000 levels).
  mutating func skipValue() throws(JSONStreamError) {
    var containers: [Bool] = []  // true: an object
    var unused: [UInt8] = []
    while true {
      guard let byte = try peekValue() else {
        throw .syntax(failure("expected a value, found the end of the file (is it truncated?)"))
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        advance()
        let isObject = byte == UInt8(ascii: "{")
        if try peekValue() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          advance()
        } else {
          guard containers.count < 10_000 else { throw .syntax(failure("objects and arrays nested over 10,000 deep")) }
          containers.append(isObject)
          if isObject {
            try scanString(keep: &unused, keeping: false)
            try expect(UInt8(ascii: ":"), "':' after a key")
          }
          continue
        }
      case UInt8(ascii: "\""): try scanString(keep: &unused, keeping: false)
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): try literal()
      default: _ = try numberValue()
      }
      // A value ended: a comma (then, in an object, the next key) or the container's end.
      while let isObject = containers.last {
        guard let next = try peekValue() else {
          throw .syntax(failure("unterminated object or array (is the file truncated?)"))
        }
        if next == UInt8(ascii: ",") {
          advance()
          if isObject {
            try scanString(keep: &unused, keeping: false)
            try expect(UInt8(ascii: ":"), "':' after a key")
          }
          break
        }
        guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
          throw .syntax(failure("expected ',' or '\(isObject ? "}" : "]")'\(try describeNext())"))
        }
        advance()
        containers.removeLast()
      }
      if containers.isEmpty { return }
    }
  }
}

/// A failure while reading JSON: the file could not be read, or its text is not JSON.
enum JSONStreamError: Error {
  case file(TraceError)
  case syntax(JSONStream.Failure)
}
