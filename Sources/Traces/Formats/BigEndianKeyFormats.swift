import CacheCore

/// A stream of big-endian signed integer keys, no header, no time, no size (cache2k,
/// Scarab and Corda traces as bundled with Caffeine's simulator).
/// Big-endian signed keys of one width; the two widths are separate concrete types so that
/// each conformance's decode loop is specialised (a generic layout's witnesses are not).
protocol BigEndianKeyLayout: RecordLayout {
  associatedtype Word: FixedWidthInteger & SignedInteger
  init()
}

extension BigEndianKeyLayout {
  static var recordSize: Int { MemoryLayout<Word>.size }
  static var traits: TraceTraits { TraceTraits(hasTime: false, hasSize: false) }

  @inline(__always)
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String? {
    let value = Word(bigEndian: bytes.loadUnaligned(as: Word.self))
    request = Request(key: UInt64(bitPattern: Int64(value)))
    return nil
  }
}

/// `int32-be` records.
struct BigEndianInt32Layout: BigEndianKeyLayout {
  typealias Word = Int32
}

/// `int64-be` records.
struct BigEndianInt64Layout: BigEndianKeyLayout {
  typealias Word = Int64
}

extension TraceFormat {
  /// `int32-be`: big-endian signed 32-bit keys.
  static let int32BigEndian = bigEndianKeys(BigEndianInt32Layout.self, "int32-be", "(cache2k traces)")

  /// `int64-be`: big-endian signed 64-bit keys.
  static let int64BigEndian = bigEndianKeys(BigEndianInt64Layout.self, "int64-be", "(Scarab, Corda traces)")

  private static func bigEndianKeys<Layout: BigEndianKeyLayout>(
    _: Layout.Type, _ name: String, _ examples: String
  ) -> TraceFormat {
    let sniff: @Sendable (TraceSample) -> SniffVerdict? = { Layout.sniff($0) }
    return TraceFormat(
      name: name,
      summary: "big-endian signed \(Layout.Word.bitWidth)-bit keys, one per request \(examples)",
      traits: Layout.traits,
      sniff: sniff
    ) { path, _ throws(TraceError) in
      try FixedRecordReader(path: path, layout: Layout())
    }
  }
}

/// Whether headerless big-endian keys are 32 or 64 bits wide, judged from a sample: 64-bit
/// keys below 2^32 leave every other 32-bit word zero; small 32-bit keys keep every word
/// small; and hashed keys repeat as whole 64-bit values only when they are 64 bits wide.
struct KeyWidthGuess {
  /// 4, 8, or nil when the sample does not tell.
  let width: Int?
  let reason: String

  /// How many of `keys` repeat an earlier one (count minus distinct keys): an open-addressing
  /// table of twice the size, so a 64 KiB sample costs microseconds rather than a Set's
  /// hashing and growth. O(n).
  static func repeats(_ keys: [UInt64]) -> Int {
    var size = 16
    while size < keys.count * 2 { size <<= 1 }
    var table = [UInt64](repeating: 0, count: size)
    var used = [Bool](repeating: false, count: size)
    var repeated = 0
    for key in keys {
      var slot = Int(truncatingIfNeeded: KeyHash.mix(key)) & (size - 1)
      while used[slot], table[slot] != key { slot = (slot + 1) & (size - 1) }
      if used[slot] {
        repeated += 1
      } else {
        used[slot] = true
        table[slot] = key
      }
    }
    return repeated
  }

  init(_ sample: TraceSample) {
    guard sample.fileSize.map({ $0 % 8 == 0 }) ?? (sample.bytes.count % 8 == 0) else {
      width = 4
      reason = "a whole number of 4-byte words but not of 8-byte ones"
      return
    }
    let words = sample.bytes.count / 4
    let values = (0..<words).map { sample.big(Int32.self, at: $0 * 4) }
    let highZero = stride(from: 0, to: words, by: 2).filter { values[$0] == 0 || values[$0] == -1 }.count
    let lowZero = stride(from: 1, to: words, by: 2).filter { values[$0] == 0 || values[$0] == -1 }.count
    let small = values.filter { $0 >= 0 && $0 < 1 << 28 }.count
    // Repeats (requests minus distinct keys) are counted only when the cheaper tests do not decide.
    lazy var repeats32 = Self.repeats(values.map { UInt64(UInt32(bitPattern: $0)) })
    lazy var repeats64 = Self.repeats((0..<words / 2).map { UInt64(bitPattern: sample.big(Int64.self, at: $0 * 8)) })
    let pairs = max(words / 2, 1)
    if highZero * 10 >= pairs * 9, lowZero * 2 < pairs {
      width = 8
      reason = "big-endian 64-bit keys below 2^32 (every other 32-bit word is zero)"
    } else if small * 10 >= words * 9 {
      width = 4
      reason = "small big-endian 32-bit keys"
    } else if repeats32 > 0, repeats64 * 20 >= repeats32 * 9 {
      width = 8
      reason = "big-endian 64-bit keys (they repeat as whole 64-bit values)"
    } else if repeats32 > 0 {
      width = 4
      reason = "big-endian 32-bit keys (they repeat as 32-bit values, not as 64-bit pairs)"
    } else {
      width = nil
      reason = "headerless big-endian keys that never repeat in the first 64 KiB"
    }
  }
}

extension BigEndianKeyLayout {
  /// How plausible `sample` is in this format (see ``TraceSniffer``).
  static func sniff(_ sample: TraceSample) -> SniffVerdict? {
    guard !sample.isText, sample.records(of: Word.bitWidth / 8) != nil else { return nil }
    let guess = KeyWidthGuess(sample)
    guard guess.width == nil || guess.width == Word.bitWidth / 8 else { return nil }
    return SniffVerdict(1, guess.reason)
  }
}
