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
  static let int32BigEndian = bigEndianKeys(Int32.self, "int32-be", "(cache2k traces)")

  /// `int64-be`: big-endian signed 64-bit keys.
  static let int64BigEndian = bigEndianKeys(Int64.self, "int64-be", "(Scarab, Corda traces)")

  private static func bigEndianKeys<Word: FixedWidthInteger & SignedInteger>(
    _: Word.Type, _ name: String, _ examples: String
  ) -> TraceFormat {
    TraceFormat(
      name: name,
      summary: "big-endian signed \(Word.bitWidth)-bit keys, one per request \(examples)",
      traits: BigEndianKeyLayout<Word>.traits
    ) { path, _ throws(TraceError) in
      try FixedRecordReader(path: path, layout: BigEndianKeyLayout<Word>())
    }
  }
}
