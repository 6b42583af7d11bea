import CacheCore

/// Little-endian record builders for the binary trace formats (tests and fuzz seeds).
public enum BinaryRecords {
  /// One field of a packed record.
  public enum Field {
    case u8(UInt8)
    case u16(UInt16)
    case u32(UInt32)
    case i32(Int32)
    case u64(UInt64)
    case i64(Int64)
  }

  /// The packed little-endian bytes of `fields`.
  public static func record(_ fields: [Field]) -> [UInt8] {
    var bytes: [UInt8] = []
    for field in fields {
      switch field {
      case .u8(let value): bytes.append(value)
      case .u16(let value): SyntheticTraces.append(&bytes, value.littleEndian)
      case .u32(let value): SyntheticTraces.append(&bytes, value.littleEndian)
      case .i32(let value): SyntheticTraces.append(&bytes, value.littleEndian)
      case .u64(let value): SyntheticTraces.append(&bytes, value.littleEndian)
      case .i64(let value): SyntheticTraces.append(&bytes, value.littleEndian)
      }
    }
    return bytes
  }

  /// An 8192-byte lcs header for `version` and `requests` requests (magic at 0 and 8184).
  public static func lcsHeader(version: UInt64, requests: Int64) -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 8192)
    let magic = record([.u64(0x1234_5678_9abc_def0)])
    header.replaceSubrange(0..<8, with: magic)
    header.replaceSubrange(8..<16, with: record([.u64(version)]))
    header.replaceSubrange(16..<24, with: record([.i64(1)]))
    header.replaceSubrange(24..<32, with: record([.i64(requests)]))
    header.replaceSubrange(8184..<8192, with: magic)
    return header
  }

  /// One lcs record of `version` (1–8): features are 0, op is GET (1), tenant 0.
  public static func lcsRecord(
    version: Int, time: UInt32, key: UInt64, size: Int64, ttl: UInt32 = 0, next: Int64
  ) -> [UInt8] {
    switch version {
    case 1: return record([.u32(time), .u64(key), .u32(UInt32(size)), .i64(next)])
    case 2: return record([.u32(time), .u64(key), .u32(UInt32(size)), .u32(1), .i64(next)])
    default:
      let features = [0, 0, 0, 0, 1, 2, 4, 8, 16][version]
      return record([.u32(time), .u64(key), .i64(size), .u32(1), .u32(ttl), .i64(next)])
        + [UInt8](repeating: 0, count: 4 * features)
    }
  }
}
