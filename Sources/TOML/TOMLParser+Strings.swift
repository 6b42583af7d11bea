extension TOMLParser {
  // Strings

  /// `"…"` with escapes; the position is at the opening quote.
  mutating func basicString() throws(TOMLError) -> String {
    index += 1
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try escape(into: &text)
      case UInt8(ascii: "\n"):
        throw error("a single-line string cannot contain a newline (use \"\"\" for several lines)")
      default:
        try checkStringByte(byte)
        text.append(byte)
        index += 1
      }
    }
  }

  /// `"""…"""`: newlines allowed, the first one (right after the quotes) dropped, `\` at the
  /// end of a line drops the line break and the whitespace after it.
  mutating func multilineBasicString() throws(TOMLError) -> String {
    index += 3
    if peek() == UInt8(ascii: "\n") { index += 1 }
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error("unterminated multi-line string") }
      switch byte {
      case UInt8(ascii: "\""):
        if let content = try closingQuotes(UInt8(ascii: "\"")) {
          text.append(contentsOf: repeatElement(UInt8(ascii: "\""), count: content))
          return String(decoding: text, as: UTF8.self)
        }
        text.append(byte)
        index += 1
      case UInt8(ascii: "\\"):
        var look = index + 1
        while look < bytes.count, bytes[look] == UInt8(ascii: " ") || bytes[look] == UInt8(ascii: "\t") { look += 1 }
        if look < bytes.count, bytes[look] == UInt8(ascii: "\n") {
          index = look
          while let next = peek(), next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
          {
            index += 1
          }
        } else {
          try escape(into: &text)
        }
      case UInt8(ascii: "\n"):
        text.append(byte)
        index += 1
      default:
        try checkStringByte(byte)
        text.append(byte)
        index += 1
      }
    }
  }

  /// `'…'`, taken as written.
  mutating func literalString() throws(TOMLError) -> String {
    index += 1
    let start = index
    while true {
      guard let byte = peek() else { throw error("unterminated literal string") }
      if byte == UInt8(ascii: "'") {
        index += 1
        return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
      }
      if byte == UInt8(ascii: "\n") {
        throw error("a literal string cannot contain a newline (use ''' for several lines)")
      }
      try checkStringByte(byte)
      index += 1
    }
  }

  /// `'''…'''`, taken as written but for a newline right after the opening quotes.
  mutating func multilineLiteralString() throws(TOMLError) -> String {
    index += 3
    if peek() == UInt8(ascii: "\n") { index += 1 }
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error("unterminated multi-line literal string") }
      if byte == UInt8(ascii: "'") {
        if let content = try closingQuotes(UInt8(ascii: "'")) {
          text.append(contentsOf: repeatElement(UInt8(ascii: "'"), count: content))
          return String(decoding: text, as: UTF8.self)
        }
        text.append(byte)
      } else if byte != UInt8(ascii: "\n") {
        try checkStringByte(byte)
        text.append(byte)
      } else {
        text.append(byte)
      }
      index += 1
    }
  }

  /// At a run of `quote`s in a multi-line string: nil if fewer than three (not the end);
  /// else consumes the run and returns how many of its quotes belong to the text (0–2).
  mutating func closingQuotes(_ quote: UInt8) throws(TOMLError) -> Int? {
    var run = 0
    while index + run < bytes.count, bytes[index + run] == quote { run += 1 }
    guard run >= 3 else { return nil }
    guard run <= 5 else { throw error("too many quotes at the end of a multi-line string") }
    index += run
    return run - 3
  }

  /// A backslash escape in a basic string; the position is at the backslash.
  mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
    guard let code = peek(1) else { throw error("unterminated string") }
    let simple: [UInt8: UInt8] = [
      UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C,
      UInt8(ascii: "r"): 0x0D, UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
    ]
    if let byte = simple[code] {
      text.append(byte)
      index += 2
      return
    }
    guard code == UInt8(ascii: "u") || code == UInt8(ascii: "U") else {
      throw error("invalid escape \\\(describeRaw(code)) (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
    }
    let digits = code == UInt8(ascii: "u") ? 4 : 8
    var scalar: UInt32 = 0
    for offset in 0..<digits {
      guard let byte = peek(2 + offset), let digit = hexValue(byte) else {
        throw error("\\\(Character(UnicodeScalar(code))) needs \(digits) hexadecimal digits")
      }
      scalar = scalar << 4 | UInt32(digit)
    }
    guard let unicode = Unicode.Scalar(scalar) else {
      throw error("\\\(Character(UnicodeScalar(code))) escape is not a Unicode scalar value")
    }
    text.append(contentsOf: Array(String(Character(unicode)).utf8))
    index += 2 + digits
  }

  /// Control characters other than tab may not appear raw in strings.
  func checkStringByte(_ byte: UInt8) throws(TOMLError) {
    if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
      throw error("control character \(describe(byte)) in a string (write it as an escape)")
    }
  }
}
