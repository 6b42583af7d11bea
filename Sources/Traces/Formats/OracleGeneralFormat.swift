import CacheCore

/// libCacheSim's *oracleGeneral* binary format: packed little-endian 24-byte records,
/// no header: `u32 clock_time (s), u64 obj_id, u32 obj_size, i64 next_access_vtime`.
///
/// `next_access_vtime` is the 1-based index of the next request to the same object, or
/// -1 if there is none; anything else that does not point forward is malformed.
struct OracleGeneralLayout: RecordLayout {
  static let recordSize = 24
  static let traits = TraceTraits(hasTime: true, hasSize: true, hasNextAccess: true)

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let time = UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
    let key = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
    let size = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    let next = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self))
    if next != -1 && next <= index {
      return "next_access_vtime \(next) does not point after this record"
    }
    request = Request(
      time: Int64(time) &* microsecondsPerSecond, key: key, size: Int64(size),
      nextAccess: next == -1 ? Request.never : next)
    return nil
  }
}

extension TraceFormat {
  /// `oracle-general`: libCacheSim oracleGeneral records.
  static let oracleGeneral = TraceFormat(
    name: "oracle-general",
    aliases: ["oraclegeneral"],
    summary: "libCacheSim oracleGeneral: 24-byte LE records (u32 time s, u64 id, u32 size, i64 next access)",
    fileSuffixes: [".oraclegeneral", ".oraclegeneral.bin", ".oracle.bin"],
    traits: OracleGeneralLayout.traits,
    sniff: OracleGeneralLayout.sniff
  ) { path, _ throws(TraceError) in
    try FixedRecordReader(path: path, layout: OracleGeneralLayout())
  }
}

extension OracleGeneralLayout {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard !sample.isText, let count = sample.records(of: 24) else { return nil }
    var previousTime: UInt32 = 0
    var sized = 0
    for record in 0..<min(count, 2000) {
      let base = record * 24
      let time = sample.little(UInt32.self, at: base)
      let size = sample.little(UInt32.self, at: base + 12)
      let next = sample.little(Int64.self, at: base + 16)
      let index = Int64(record + 1)
      guard time >= previousTime, next == -1 || (next > index && next - index < 1 << 40) else { return nil }
      previousTime = time
      if size > 0 { sized += 1 }
    }
    guard sized > 0 else { return nil }
    return SniffVerdict(2, "24-byte records, times in order, valid next-access indices")
  }
}
