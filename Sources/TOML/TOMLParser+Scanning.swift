extension TOMLParser {
  // Scanning helpers

  func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

  mutating func skipSpaces() {
    while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
  }

  /// Spaces, newlines and comments (between array elements).
  mutating func skipBlank() throws(TOMLError) {
    while let byte = peek() {
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
        index += 1
      } else if byte == UInt8(ascii: "#") {
        try skipComment()
      } else {
        return
      }
    }
  }

  /// From `#` to the end of the line (the newline stays).
  mutating func skipComment() throws(TOMLError) {
    while let byte = peek(), byte != UInt8(ascii: "\n") {
      if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
        throw error("control character \(describe(byte)) in a comment")
      }
      index += 1
    }
  }

  mutating func enter() throws(TOMLError) {
    depth += 1
    guard depth <= TOMLReader.maximumDepth else {
      throw error("arrays and inline tables nested more than \(TOMLReader.maximumDepth) deep")
    }
  }

  func isBareKeyByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
  }

  func isNumberByte(_ byte: UInt8) -> Bool {
    isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
  }

  func isDate(_ token: ArraySlice<UInt8>) -> Bool {
    guard token.count == 10 else { return false }
    let base = token.startIndex
    return (0..<10).allSatisfy { offset in
      offset == 4 || offset == 7 ? token[base + offset] == UInt8(ascii: "-") : isDigit(token[base + offset])
    }
  }

  func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Digits with single underscores only between digits.
  func validUnderscores(_ digits: ArraySlice<UInt8>, digit: (UInt8) -> Bool) -> Bool {
    guard let first = digits.first, let last = digits.last, digit(first), digit(last) else { return false }
    var previousUnderscore = false
    for byte in digits {
      if byte == UInt8(ascii: "_") {
        if previousUnderscore { return false }
        previousUnderscore = true
      } else {
        guard digit(byte) else { return false }
        previousUnderscore = false
      }
    }
    return true
  }

  // Errors

  func error(_ message: String) -> TOMLError { error(at: index, message) }

  /// An error at byte `offset`, with its 1-based line and column (in characters).
  func error(at offset: Int, _ message: String) -> TOMLError {
    let offset = min(offset, bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<offset where bytes[position] == UInt8(ascii: "\n") {
      line += 1
      lineStart = position + 1
    }
    let column = 1 + bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count
    return TOMLError(line: line, column: column, message)
  }

  func describe(_ byte: UInt8) -> String {
    if byte == UInt8(ascii: "\n") { return "a newline" }
    if byte < 0x20 || byte == 0x7F { return "U+" + String(byte, radix: 16, uppercase: true).leftPadded(4) }
    return "'\(describeRaw(byte))'"
  }

  func describeRaw(_ byte: UInt8) -> String {
    byte < 0x80 ? String(UnicodeScalar(byte)) : "non-ASCII text"
  }

  func quoted(_ path: ArraySlice<String>) -> String {
    path.map { name in name.utf8.allSatisfy(isBareKeyByte) && !name.isEmpty ? name : "\"\(name)\"" }.joined(
      separator: ".")
  }

  func article(_ kind: String) -> String { (kind.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + kind }
}

func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

func hexValue(_ byte: UInt8) -> Int? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
  default: nil
  }
}

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
