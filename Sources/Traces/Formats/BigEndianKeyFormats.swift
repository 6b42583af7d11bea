import CacheCore

/// A stream of big-endian signed integer keys, no header, no time, no size (cache2k,
/// Scarab and Corda traces as bundled with Caffeine's simulator).
struct BigEndianKeyLayout<Word: FixedWidthInteger & SignedInteger>: RecordLayout {
  static var recordSize: Int { MemoryLayout<Word>.size }
  static var traits: TraceTraits { TraceTraits(hasTime: false, hasSize: false) }

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let value = Word(bigEndian: bytes.loadUnaligned(as: Word.self))
    request = Request(key: UInt64(bitPattern: Int64(value)))
    return nil
  }
}

extension TraceFormat {
  /// `int32-be`: big-endian signed 32-bit keys.
  static let int32BigEndian = TraceFormat(
    name: "int32-be",
    summary: "big-endian signed 32-bit keys, one per request (cache2k traces)",
    traits: BigEndianKeyLayout<Int32>.traits
  ) { path, _ throws(TraceError) in
    try FixedRecordReader(path: path, layout: BigEndianKeyLayout<Int32>())
  }

  /// `int64-be`: big-endian signed 64-bit keys.
  static let int64BigEndian = TraceFormat(
    name: "int64-be",
    summary: "big-endian signed 64-bit keys, one per request (Scarab, Corda traces)",
    traits: BigEndianKeyLayout<Int64>.traits
  ) { path, _ throws(TraceError) in
    try FixedRecordReader(path: path, layout: BigEndianKeyLayout<Int64>())
  }
}
