import CacheCore

/// A packed little-endian record described by field offsets: the shape of libCacheSim's many
/// fixed-size binary readers (twr, wiki, oracle variants), declared in one line each.
struct FieldRecordLayout: RecordLayout {
  /// Where the object size comes from.
  enum SizeField {
    case u32(Int)
    case u16(Int)
    /// A u64 whose sign-extended 32-bit values are repaired (Cloudflare's oracleCF1).
    case u64(Int)
    /// `u16 key size` + `u32 value size` (oracleSysTwrNS).
    case keyPlusValue(key: Int, value: Int)
    /// One u32: key size in the top 10 bits, value size in the low 22 (twr).
    case packedKeyValue(Int)
  }

  /// Where the time-to-live (seconds) comes from.
  enum TTLField {
    case i32(Int)
    case u16(Int)
    /// The low 24 bits of a u32 whose top 8 bits are the operation (twr).
    case low24(Int)
  }

  static let recordSize = 0
  static let traits = TraceTraits(hasTime: true, hasSize: true)

  let recordSize: Int
  /// Offset of the u32 seconds, nil when the records carry no time.
  let time: Int?
  let key: Int
  let size: SizeField
  /// Offset of the i64 1-based next-access index (-1 or INT64_MAX: none), if any.
  let next: Int?
  let ttl: TTLField?

  var traits: TraceTraits { TraceTraits(hasTime: time != nil, hasSize: true, hasNextAccess: next != nil) }

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let objectSize: Int64
    switch size {
    case .u32(let offset): objectSize = Int64(bytes.little(offset, as: UInt32.self))
    case .u16(let offset): objectSize = Int64(bytes.little(offset, as: UInt16.self))
    case .u64(let offset):
      var value = bytes.little(offset, as: UInt64.self)
      if value > 0xFFFF_FFFF_0000_0000 { value -= 0xFFFF_FFFF_0000_0000 }
      guard value <= UInt64(Request.maximumSize) else { return "object size \(value) is above 2^48" }
      objectSize = Int64(value)
    case .keyPlusValue(let keyOffset, let valueOffset):
      objectSize = Int64(bytes.little(keyOffset, as: UInt16.self)) + Int64(bytes.little(valueOffset, as: UInt32.self))
    case .packedKeyValue(let offset):
      let packed = bytes.little(offset, as: UInt32.self)
      objectSize = Int64(packed >> 22 & 0x3FF) + Int64(packed & 0x3F_FFFF)
    }
    var nextAccess = Request.unknown
    if let next {
      let value = bytes.little(next, as: Int64.self)
      if value == -1 || value == .max {
        nextAccess = Request.never
      } else if value <= index {
        return "next_access_vtime \(value) does not point after this record"
      } else {
        nextAccess = value
      }
    }
    let seconds = time.map { Int64(bytes.little($0, as: UInt32.self)) } ?? 0
    request = Request(
      time: seconds * microsecondsPerSecond, key: bytes.little(key, as: UInt64.self), size: objectSize,
      nextAccess: nextAccess)
    return nil
  }

  var hasTTL: Bool { ttl != nil }

  func ttlSeconds(_ bytes: UnsafeRawPointer) -> Int64 {
    switch ttl {
    case .none: return 0
    case .i32(let offset): return Int64(bytes.little(offset, as: Int32.self))
    case .u16(let offset): return Int64(bytes.little(offset, as: UInt16.self))
    case .low24(let offset): return Int64(bytes.little(offset, as: UInt32.self) & 0xFF_FFFF)
    }
  }
}

extension TraceFormat {
  /// A format of ``FieldRecordLayout`` records, recognised by name only.
  static func fieldRecords(
    _ name: String, aliases: [String] = [], summary: String, suffixes: [String], layout: FieldRecordLayout
  ) -> TraceFormat {
    TraceFormat(
      name: name, aliases: aliases, summary: summary, fileSuffixes: suffixes, traits: layout.traits
    ) { path, _ throws(TraceError) in
      try FixedRecordReader(path: path, layout: layout)
    }
  }
}
