import CacheCore

/// VMware vscsi (version 1) block traces: packed little-endian 32-byte records
/// `u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts (µs)`.
///
/// The object is the logical block number, its size the request length.
struct VscsiLayout: RecordLayout {
  static let recordSize = 32
  static let traits = TraceTraits(hasTime: true, hasSize: true)

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let length = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    let block = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    let micros = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    guard micros < UInt64(Request.timeLimit) else { return "timestamp \(micros) µs is beyond 2^62 µs" }
    request = Request(time: Int64(micros), key: block, size: Int64(length))
    return nil
  }
}

extension TraceFormat {
  /// `vscsi`: VMware vscsi v1 records.
  static let vscsi = TraceFormat(
    name: "vscsi",
    summary: "VMware vscsi v1: 32-byte LE records (u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts µs)",
    fileSuffixes: [".vscsi"],
    traits: VscsiLayout.traits,
    sniff: VscsiLayout.sniff
  ) { path, _ throws(TraceError) in
    try FixedRecordReader(path: path, layout: VscsiLayout())
  }
}

extension VscsiLayout {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard !sample.isText, let count = sample.records(of: 32) else { return nil }
    var previous: UInt64 = 0
    var sectorMultiples = 0
    let sampled = min(count, 2000)
    for record in 0..<sampled {
      let base = record * 32
      let length = sample.little(UInt32.self, at: base + 4)
      let micros = sample.little(UInt64.self, at: base + 24)
      guard length > 0, micros >= previous, micros < UInt64(Request.timeLimit) else { return nil }
      previous = micros
      if length % 512 == 0 { sectorMultiples += 1 }
    }
    guard sectorMultiples * 100 >= sampled * 95 else { return nil }
    return SniffVerdict(2, "32-byte records, timestamps in order, lengths in 512-byte sectors")
  }
}
