/// Splits a delimited text line into fields: a delimiter byte (commas, tabs, ...) with
/// RFC 4180 quoting, or runs of spaces and tabs.
struct FieldSplitter {
  /// The separator byte, or nil to split on runs of whitespace.
  let delimiter: UInt8?
  /// Scratch space for unescaping quoted fields that contain `""`.
  private let scratch = ScratchBuffer()

  init(delimiter: UInt8?) {
    self.delimiter = delimiter
  }

  /// Calls `body(index, field)` for each field, in order (0-based), until `body` returns
  /// false. Returns the number of fields visited.
  mutating func forEachField(
    _ line: UnsafeRawBufferPointer,
    _ body: (Int, UnsafeRawBufferPointer) throws(LineError) -> Bool
  ) throws(LineError) -> Int {
    guard let delimiter else { return try forEachWhitespaceField(line, body) }
    var index = 0
    var position = 0
    let count = line.count
    while true {
      var field: UnsafeRawBufferPointer
      // Skip spaces before a possible opening quote.
      var probe = position
      while probe < count, line[probe] == 0x20 { probe += 1 }
      if probe < count, line[probe] == 0x22 {
        (field, position) = try quotedField(line, openingQuote: probe, delimiter: delimiter)
      } else {
        let end = Self.end(of: line, from: position, delimiter: delimiter)
        field = UnsafeRawBufferPointer(rebasing: line[position..<end])
        position = end
      }
      let proceed = try body(index, field)
      index += 1
      guard proceed, position < count else { return index }
      position += 1  // the delimiter
    }
  }

  /// The index of the first `delimiter` in `line` at or after `start`, or `line.count`:
  /// eight bytes at a time (a word whose XOR with the delimiter repeated has a zero byte holds
  /// one), then byte by byte for the last few.
  @inline(__always)
  static func end(of line: UnsafeRawBufferPointer, from start: Int, delimiter: UInt8) -> Int {
    let count = line.count
    var end = start
    if let base = line.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let pattern = UInt64(delimiter) &* ones
      while end &+ 8 <= count {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end, as: UInt64.self)) ^ pattern
        // The lowest flagged byte is the first zero byte (later flags may be false).
        let zeros = (word &- ones) & ~word & (ones &* 0x80)
        if zeros != 0 { return end &+ zeros.trailingZeroBitCount >> 3 }
        end &+= 8
      }
    }
    while end < count, line[end] != delimiter { end += 1 }
    return end
  }

  private func quotedField(
    _ line: UnsafeRawBufferPointer, openingQuote: Int, delimiter: UInt8
  ) throws(LineError) -> (UnsafeRawBufferPointer, Int) {
    let count = line.count
    var cursor = openingQuote + 1
    var escaped = false
    while true {
      guard cursor < count else { throw LineError("unterminated quoted field") }
      if line[cursor] == 0x22 {
        if cursor + 1 < count, line[cursor + 1] == 0x22 {
          escaped = true
          cursor += 2
          continue
        }
        break
      }
      cursor += 1
    }
    let content = UnsafeRawBufferPointer(rebasing: line[(openingQuote + 1)..<cursor])
    var after = cursor + 1
    while after < count, line[after] == 0x20 { after += 1 }
    guard after == count || line[after] == delimiter else {
      throw LineError("unexpected text after a closing quote")
    }
    guard escaped else { return (content, after) }
    let bytes = scratch.reserve(content.count)
    var written = 0
    var i = 0
    while i < content.count {
      bytes[written] = content[i]
      written += 1
      i += content[i] == 0x22 ? 2 : 1
    }
    return (UnsafeRawBufferPointer(rebasing: bytes[0..<written]), after)
  }

  /// The next run of non-whitespace bytes of `line` at or after `position` (which moves past
  /// it), or nil when only spaces and tabs remain. No closure, for the hottest parsers.
  @inline(__always)
  static func nextWhitespaceField(_ line: UnsafeRawBufferPointer, _ position: inout Int) -> UnsafeRawBufferPointer? {
    let count = line.count
    var cursor = position
    while cursor < count, line[cursor] == 0x20 || line[cursor] == 0x09 { cursor += 1 }
    guard cursor < count else {
      position = cursor
      return nil
    }
    let start = cursor
    while cursor < count, line[cursor] != 0x20, line[cursor] != 0x09 { cursor += 1 }
    position = cursor
    return UnsafeRawBufferPointer(rebasing: line[start..<cursor])
  }

  private func forEachWhitespaceField(
    _ line: UnsafeRawBufferPointer,
    _ body: (Int, UnsafeRawBufferPointer) throws(LineError) -> Bool
  ) throws(LineError) -> Int {
    var index = 0
    var position = 0
    while position < line.count {
      while position < line.count, line[position] == 0x20 || line[position] == 0x09 { position += 1 }
      guard position < line.count else { break }
      let start = position
      while position < line.count, line[position] != 0x20, line[position] != 0x09 { position += 1 }
      let proceed = try body(index, UnsafeRawBufferPointer(rebasing: line[start..<position]))
      index += 1
      if !proceed { break }
    }
    return index
  }
}

/// A growable byte buffer owned by one parser, freed with it.
final class ScratchBuffer {
  private var bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)

  deinit {
    bytes.deallocate()
  }

  /// Storage for at least `count` bytes, valid until the next call.
  func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
    if bytes.count < count {
      bytes.deallocate()
      bytes = .allocate(byteCount: count, alignment: 1)
    }
    return bytes
  }
}
