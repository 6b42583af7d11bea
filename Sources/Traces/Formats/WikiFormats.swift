/// Wikimedia CDN traces as libCacheSim stores them (traceReader/customizedReader/wikiBin.h and
/// oracle/oracleWikiBin.h): little-endian, u64 id, u32 size, a u16 content type (ignored);
/// the 2016 traces carry no time.
extension TraceFormat {
  /// `wiki16u`: 14 B, `u64 id, u32 size, u16 content type`.
  static let wiki16u = fieldRecords(
    "wiki16u", summary: "Wikimedia 2016 upload (libCacheSim wiki16u): 14 B, u64 id, u32 size, u16 type; no time",
    suffixes: [".wiki16u", ".wiki16u.bin"],
    layout: FieldRecordLayout(recordSize: 14, time: nil, key: 0, size: .u32(8), next: nil, ttl: nil))

  /// `wiki19u`: 18 B, `u32 time, u64 id, u32 size, u16 content type`.
  static let wiki19u = fieldRecords(
    "wiki19u", summary: "Wikimedia 2019 upload (libCacheSim wiki19u): 18 B, u32 time, u64 id, u32 size, u16 type",
    suffixes: [".wiki19u", ".wiki19u.bin"],
    layout: FieldRecordLayout(recordSize: 18, time: 0, key: 4, size: .u32(12), next: nil, ttl: nil))

  /// `wiki19t`: 16 B, `u32 time, u64 id, u32 size`.
  static let wiki19t = fieldRecords(
    "wiki19t", summary: "Wikimedia 2019 text (libCacheSim wiki19t): 16 B, u32 time, u64 id, u32 size",
    suffixes: [".wiki19t", ".wiki19t.bin"],
    layout: FieldRecordLayout(recordSize: 16, time: 0, key: 4, size: .u32(12), next: nil, ttl: nil))

  /// `oracle-wiki16u`: `wiki16u` + i64 next (22 B).
  static let oracleWiki16u = fieldRecords(
    "oracle-wiki16u", aliases: ["oraclewiki16u"], summary: "wiki16u + i64 next-access index, 22 B",
    suffixes: [".oraclewiki16u", ".oraclewiki16u.bin"],
    layout: FieldRecordLayout(recordSize: 22, time: nil, key: 0, size: .u32(8), next: 14, ttl: nil))

  /// `oracle-wiki19u`: `wiki19u` + i64 next (26 B).
  static let oracleWiki19u = fieldRecords(
    "oracle-wiki19u", aliases: ["oraclewiki19u"], summary: "wiki19u + i64 next-access index, 26 B",
    suffixes: [".oraclewiki19u", ".oraclewiki19u.bin"],
    layout: FieldRecordLayout(recordSize: 26, time: 0, key: 4, size: .u32(12), next: 18, ttl: nil))
}
