import CacheCore

/// libCacheSim's *lcs* binary traces: an 8192-byte header (start magic `0x123456789abcdef0`,
/// a u64 version 1–8, an 8000-byte statistics block, end magic at byte 8184), then packed
/// little-endian records whose layout the version picks (libCacheSim traceReader/
/// customizedReader/lcs.h):
///
/// - v1, 24 B: `u32 time, u64 id, u32 size, i64 next` (as oracleGeneral);
/// - v2, 28 B: v1 with `u32 op:8 | tenant:24` before `next`;
/// - v3, 36 B: `u32 time, u64 id, i64 size, u32 op:8 | tenant:24, u32 ttl, i64 next`;
/// - v4–v8: v3 followed by 1, 2, 4, 8 or 16 u32 features (40–100 B).
///
/// `next` is the 1-based index of the next request to the object; -1 and INT64_MAX mean none.
/// Times are seconds; the TTL (v3+, seconds, 0: none) goes to the request's attributes.
struct LCSLayout: RecordLayout {
  static let recordSize = 24
  static let traits = TraceTraits(hasTime: true, hasSize: true, hasNextAccess: true)
  static let headerSize = 8192
  static let magic: UInt64 = 0x1234_5678_9abc_def0
  /// Record size of each version (index = version).
  static let recordSizes = [0, 24, 28, 36, 40, 44, 52, 68, 100]

  let version: Int
  let recordSize: Int
  /// Offsets of the size and next-access fields, and whether the size is 64-bit.
  private let nextOffset: Int
  private let wideSize: Bool

  init(version: Int) {
    self.version = version
    recordSize = Self.recordSizes[version]
    wideSize = version >= 3
    nextOffset = version == 1 ? 16 : version == 2 ? 20 : 28
  }

  /// The layout the header at `bytes` declares, after checking both magic numbers.
  static func header(_ bytes: UnsafeRawBufferPointer, path: String) throws(TraceError) -> LCSLayout {
    let base = bytes.baseAddress!
    guard base.little(0, as: UInt64.self) == magic else {
      throw TraceError(.malformedRecord, path: path, "not an lcs trace: no start magic 0x123456789abcdef0 at byte 0")
    }
    guard base.little(headerSize - 8, as: UInt64.self) == magic else {
      throw TraceError(
        .malformedRecord, path: path,
        "lcs header lacks its end magic at byte 8184 (an old 1024-byte lcs header is not supported)")
    }
    let version = base.little(8, as: UInt64.self)
    guard (1...8).contains(version) else {
      throw TraceError(.malformedRecord, path: path, "lcs version \(version) is not one of 1...8")
    }
    return LCSLayout(version: Int(version))
  }

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let time = bytes.little(0, as: UInt32.self)
    let key = bytes.little(4, as: UInt64.self)
    let size = wideSize ? bytes.little(12, as: Int64.self) : Int64(bytes.little(12, as: UInt32.self))
    let next = bytes.little(nextOffset, as: Int64.self)
    guard size >= 0, size <= Request.maximumSize else { return "object size \(size) is outside 0...2^48" }
    let never = next == -1 || next == .max
    if !never && next <= index { return "next_access_vtime \(next) does not point after this record" }
    request = Request(
      time: Int64(time) * microsecondsPerSecond, key: key, size: size, nextAccess: never ? Request.never : next)
    return nil
  }

  /// Versions 3 and later carry a TTL.
  var hasTTL: Bool { version >= 3 }

  func ttlSeconds(_ bytes: UnsafeRawPointer) -> Int64 {
    Int64(bytes.little(24, as: UInt32.self))
  }

  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard sample.bytes.count >= 16, sample.little(UInt64.self, at: 0) == magic else { return nil }
    return SniffVerdict(3, "lcs start magic, version \(sample.little(UInt64.self, at: 8))")
  }
}

extension TraceFormat {
  /// `lcs`: libCacheSim lcs traces, every version.
  static let lcs = TraceFormat(
    name: "lcs",
    summary: "libCacheSim lcs: 8192-byte header (magic, version 1-8, statistics), then v1-v8 records (24-100 B)",
    fileSuffixes: [".lcs"],
    traits: LCSLayout.traits,
    sniff: LCSLayout.sniff
  ) { path, _ throws(TraceError) in
    try FixedRecordReader(path: path, headerSize: LCSLayout.headerSize) { (bytes) throws(TraceError) in
      try LCSLayout.header(bytes, path: path)
    }
  }
}
