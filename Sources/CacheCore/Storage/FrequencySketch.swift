/// A count-min sketch of 4-bit counters, depth 4, with periodic halving (aging): the
/// frequency filter of TinyLFU, laid out as Caffeine's simulator `CountMin4` does.
///
/// The table holds L 64-bit words of sixteen 4-bit counters; a key's four counters share
/// one nibble offset across four words. After `10 × L` increments that changed a counter,
/// every counter is halved. Hashing follows Caffeine's (Java `Long.hashCode` and 32-bit
/// spreading), so results match its simulator. Memory: 8 bytes per 16 counters.
public struct FrequencySketch: ~Copyable {
  @usableFromInline var table: UnsafeMutablePointer<UInt64>?
  @usableFromInline var length = 0
  @usableFromInline var mask: UInt64 = 0
  @usableFromInline var period = 10
  @usableFromInline var additions = 0
  /// Whether increments only raise the counters equal to the minimum.
  public let conservative: Bool

  @usableFromInline static let seeds: (UInt64, UInt64, UInt64, UInt64) = (
    0xc3a5_c85c_97cb_3127, 0xb492_b66f_be98_f273, 0x9ae1_6a3b_2f90_404f, 0xcbf2_9ce4_8422_2325
  )

  /// Creates an unallocated sketch (every frequency 0, increments ignored) until
  /// ``ensureCapacity(_:)`` is called.
  public init(conservative: Bool = false) {
    self.conservative = conservative
  }

  deinit {
    table?.deallocate()
  }

  /// Sizes the table for `expected` entries (next power of two words, at least 1); a larger
  /// size reallocates and forgets all counts. Does nothing if already large enough.
  public mutating func ensureCapacity(_ expected: Int) {
    let maximum = min(max(expected, 0), Int(Int32.max >> 1))
    if table != nil && length >= maximum { return }
    var words = 1
    while words < maximum { words <<= 1 }
    table?.deallocate()
    let fresh = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
    fresh.initialize(repeating: 0, count: words)
    table = fresh
    length = words
    mask = UInt64(words - 1)
    period = expected == 0 ? 10 : 10 * words
    additions = 0
  }

  /// Java's `Long.hashCode` followed by Caffeine's 32-bit spread.
  @inlinable @inline(__always)
  static func spread(_ key: UInt64) -> Int32 {
    var h = UInt32(truncatingIfNeeded: key ^ (key >> 32))
    h = ((h >> 16) ^ h) &* 0x45d_9f3b
    h = ((h >> 16) ^ h) &* 0x45d_9f3b
    h = (h >> 16) ^ h
    return Int32(bitPattern: h)
  }

  @inlinable @inline(__always)
  func word(_ hash: Int32, _ seed: UInt64) -> Int {
    var value = (UInt64(bitPattern: Int64(hash)) &+ seed) &* seed
    value &+= value >> 32
    return Int(value & mask)
  }

  /// Calls `body(word, shift)` for the four counters of `key`.
  @inlinable @inline(__always)
  func forEachCounter(_ key: UInt64, _ body: (Int, UInt64) -> Void) {
    let hash = Self.spread(key)
    let start = UInt64((hash & 3) << 2)
    body(word(hash, Self.seeds.0), (start + 0) << 2)
    body(word(hash, Self.seeds.1), (start + 1) << 2)
    body(word(hash, Self.seeds.2), (start + 2) << 2)
    body(word(hash, Self.seeds.3), (start + 3) << 2)
  }

  /// The estimated frequency of `key` (0...15).
  @inlinable
  public func frequency(_ key: UInt64) -> Int {
    guard let table else { return 0 }
    var minimum: UInt64 = 15
    forEachCounter(key) { word, shift in minimum = min(minimum, (table[word] >> shift) & 0xF) }
    return Int(minimum)
  }

  /// Counts one occurrence of `key`; halves all counters after each sample period.
  @inlinable
  public mutating func increment(_ key: UInt64) {
    guard let table else { return }
    var added = false
    if conservative {
      let minimum = UInt64(frequency(key))
      guard minimum < 15 else { return }
      forEachCounter(key) { word, shift in
        if (table[word] >> shift) & 0xF == minimum {
          table[word] += 1 << shift
          added = true
        }
      }
    } else {
      forEachCounter(key) { word, shift in
        if (table[word] >> shift) & 0xF < 15 {
          table[word] += 1 << shift
          added = true
        }
      }
    }
    guard added else { return }
    additions += 1
    if additions == period { reset() }
  }

  @usableFromInline
  mutating func reset() {
    guard let table else { return }
    var odd = 0
    for index in 0..<length {
      odd += (table[index] & 0x1111_1111_1111_1111).nonzeroBitCount
      table[index] = (table[index] >> 1) & 0x7777_7777_7777_7777
    }
    additions = (additions >> 1) - (odd >> 2)
  }
}

extension FrequencySketch {
  /// Bytes of memory the counter table holds (0 before it is sized).
  public var memoryFootprint: Int { length * MemoryLayout<UInt64>.stride }
}
