/// Twitter's cache traces as libCacheSim stores them (traceReader/customizedReader/twrBin.h,
/// twrNSBin.h, oracle/oracleTwrNSBin.h): little-endian, u32 seconds, u64 key; sizes are key +
/// value bytes; TTLs in seconds. Zero-size GETs are kept (libCacheSim drops them).
extension TraceFormat {
  /// `twr`: 20 B, `u32 time, u64 id, u32 key:10|value:22, u32 op:8|ttl:24`.
  static let twr = fieldRecords(
    "twr", summary: "Twitter (libCacheSim twr): 20 B, u32 time, u64 id, u32 key size:10|value size:22, u32 op:8|ttl:24",
    suffixes: [".twr", ".twr.bin"],
    layout: FieldRecordLayout(recordSize: 20, time: 0, key: 4, size: .packedKeyValue(12), next: nil, ttl: .low24(16)))

  /// `twr-ns`: `twr` plus a u16 namespace (22 B).
  static let twrNS = fieldRecords(
    "twr-ns", aliases: ["twrns"], summary: "Twitter with namespace (libCacheSim twrNS): twr + u16 ns, 22 B",
    suffixes: [".twrns", ".twrns.bin"],
    layout: FieldRecordLayout(recordSize: 22, time: 0, key: 4, size: .packedKeyValue(12), next: nil, ttl: .low24(16)))

  /// `oracle-sys-twr-ns`: 34 B, `u32 time, u64 id, u16 key size, u32 value size, u16 op, u16 ns, i32 ttl, i64 next`.
  static let oracleSysTwrNS = fieldRecords(
    "oracle-sys-twr-ns", aliases: ["oraclesystwrns"],
    summary: "Twitter oracle (libCacheSim oracleSysTwrNS): 34 B, key+value size, op, ns, i32 ttl, i64 next",
    suffixes: [".oraclesystwrns", ".oraclesystwrns.bin"],
    layout: FieldRecordLayout(
      recordSize: 34, time: 0, key: 4, size: .keyPlusValue(key: 12, value: 14), next: 26, ttl: .i32(22)))

  /// `oracle-sim-twr-ns`: 30 B, `u32 time, u64 id, u32 size, i32 ttl, u16 ns, i64 next`.
  static let oracleSimTwrNS = fieldRecords(
    "oracle-sim-twr-ns", aliases: ["oraclesimtwrns"],
    summary: "Twitter oracle (libCacheSim oracleSimTwrNS): 30 B, u32 size, i32 ttl, u16 ns, i64 next",
    suffixes: [".oraclesimtwrns", ".oraclesimtwrns.bin"],
    layout: FieldRecordLayout(recordSize: 30, time: 0, key: 4, size: .u32(12), next: 22, ttl: .i32(16)))
}
