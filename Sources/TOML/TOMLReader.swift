/// Reads TOML 1.0 documents (https://toml.io/en/v1.0.0): every value kind, dotted and quoted
/// keys, tables, arrays of tables, inline tables, and the spec's rules on defining a table
/// once. Errors give the line and column. O(n) in the document's length; nesting of arrays
/// and inline tables is limited to ``maximumDepth`` so that no document can exhaust the stack.
public enum TOMLReader {
  /// Deepest nesting of arrays and inline tables accepted.
  public static let maximumDepth = 128

  /// The document's root table.
  ///
  /// - Throws: ``TOMLError`` at the first thing that is not valid TOML 1.0.
  public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
    try parse(utf8: Array(text.utf8))
  }

  /// The root table of the document in `bytes` (a file's contents as read), which must be
  /// UTF-8; one byte-order mark at the start is allowed.
  ///
  /// - Throws: ``TOMLError`` for text that is not UTF-8 or not valid TOML 1.0.
  public static func parse(utf8 bytes: [UInt8]) throws(TOMLError) -> TOMLTable {
    var bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    if let offset = firstInvalidUTF8(bytes) { throw TOMLParser(bytes).error(at: offset, "the file is not UTF-8 text") }
    var parser = TOMLParser(normalisingLineEnds(bytes))
    return try parser.document()
  }

  /// The offset of the first byte that does not start a valid UTF-8 sequence, or nil. O(n).
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// `bytes` with each CR LF replaced by LF (a lone CR stays, and is an error where it appears).
  static func normalisingLineEnds(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(UInt8(ascii: "\r")) else { return bytes }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
        index += 1
        continue
      }
      result.append(bytes[index])
      index += 1
    }
    return result
  }
}
