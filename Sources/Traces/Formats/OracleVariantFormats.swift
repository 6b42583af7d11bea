/// Other oracle binary layouts of libCacheSim (traceReader/customizedReader/oracle/): a
/// little-endian u32 time and u64 id first, an i64 next-access index, extra fields ignored.
extension TraceFormat {
  /// `oracle-general-op-ns`: 27 B, `u32 time, u64 id, u32 size, u8 op, u16 ns, i64 next`.
  static let oracleGeneralOpNS = fieldRecords(
    "oracle-general-op-ns", aliases: ["oraclegeneralopns"],
    summary: "libCacheSim oracleGeneralOpNS: 27 B, oracleGeneral + u8 op + u16 namespace",
    suffixes: [".oraclegeneralopns", ".oraclegeneralopns.bin"],
    layout: FieldRecordLayout(recordSize: 27, time: 0, key: 4, size: .u32(12), next: 19, ttl: nil))

  /// `oracle-cf1`: 49 B Cloudflare records: `u32 time, u64 id, u64 size, i32 ttl, u32 age,
  /// u32 host, i64 next, ...`.
  static let oracleCF1 = fieldRecords(
    "oracle-cf1", aliases: ["oraclecf1"],
    summary: "Cloudflare (libCacheSim oracleCF1): 49 B, u64 size, i32 ttl, i64 next at 32",
    suffixes: [".oraclecf1", ".oraclecf1.bin"],
    layout: FieldRecordLayout(recordSize: 49, time: 0, key: 4, size: .u64(12), next: 32, ttl: .i32(20)))

  /// `oracle-akamai`: 30 B, `u32 time, u64 id, u32 size, 3 × i16 tenant/bucket/content, i64 next`.
  static let oracleAkamai = fieldRecords(
    "oracle-akamai", aliases: ["oracleakamai"],
    summary: "Akamai (libCacheSim oracleAkamai): 30 B, oracleGeneral + 3 i16 fields before next",
    suffixes: [".oracleakamai", ".oracleakamai.bin"],
    layout: FieldRecordLayout(recordSize: 30, time: 0, key: 4, size: .u32(12), next: 22, ttl: nil))
}
