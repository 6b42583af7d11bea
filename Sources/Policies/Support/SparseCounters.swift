import CPrefetch

/// `UInt32` counters indexed by `UInt32` (below 2^31), of which only the non-zero ones are
/// stored: open addressing with linear probing over 8-byte entries (the index + 1 in the low
/// half, the count in the high half; 0 marks an unused entry), at most three quarters full. A read or an
/// increment costs one expected random memory access, which ``prefetch(_:)`` starts early.
/// Memory: 11–21 B per counter in use; nothing is allocated except when the table doubles.
/// A class (its owner, ``CountingBloomFilter``, cannot be copied): a struct with a `deinit` held
/// in an inlinable policy's stored property crashes the optimizer of Swift 6.3.1.
@usableFromInline
final class SparseCounters {
  @usableFromInline var entries: UnsafeMutablePointer<UInt64>
  @usableFromInline var capacity: Int
  @usableFromInline var shift: UInt64
  /// Counters stored.
  @usableFromInline var count = 0

  @usableFromInline
  init(bits: Int = 10) {
    capacity = 1 << bits
    shift = UInt64(64 - bits)
    entries = .allocate(capacity: capacity)
    entries.initialize(repeating: 0, count: capacity)
  }

  deinit { entries.deallocate() }

  /// Where the probe for `index` starts.
  @inlinable @inline(__always)
  func home(_ index: UInt32) -> Int {
    Int(truncatingIfNeeded: (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// Starts loading the entry where the probe for `index` starts; changes nothing.
  @inlinable @inline(__always)
  func prefetch(_ index: UInt32) { cachelab_prefetch(entries + home(index)) }

  /// The count at `index` (0 when not stored).
  @inlinable @inline(__always)
  func value(_ index: UInt32) -> UInt32 {
    let tag = UInt64(index) &+ 1
    var slot = home(index)
    while true {
      let entry = entries[slot]
      if entry == 0 { return 0 }
      if entry & 0xFFFF_FFFF == tag { return UInt32(truncatingIfNeeded: entry >> 32) }
      slot = (slot &+ 1) & (capacity &- 1)
    }
  }

  /// Adds one to the count at `index`, wrapping at 2^32 as a `UInt32` does (the entry stays).
  @inlinable @inline(__always)
  func increment(_ index: UInt32) {
    let tag = UInt64(index) &+ 1
    var slot = home(index)
    while true {
      let entry = entries[slot]
      if entry & 0xFFFF_FFFF == tag {
        // A carry out of the high half leaves the tag as it is.
        entries[slot] = entry &+ (1 << 32)
        return
      }
      if entry == 0 { break }
      slot = (slot &+ 1) & (capacity &- 1)
    }
    if 4 * (count + 1) > 3 * capacity {
      rebuild(capacity: capacity * 2, halving: false)
      increment(index)
      return
    }
    entries[slot] = tag | (1 << 32)
    count += 1
  }

  /// Halves every count, dropping those that reach 0. O(capacity).
  func halve() { rebuild(capacity: capacity, halving: true) }

  /// Re-inserts every stored counter (halved when asked) into a table of `capacity` entries.
  @usableFromInline
  func rebuild(capacity newCapacity: Int, halving: Bool) {
    let old = entries
    let oldCapacity = capacity
    capacity = newCapacity
    shift = UInt64(64 - newCapacity.trailingZeroBitCount)
    entries = .allocate(capacity: newCapacity)
    entries.initialize(repeating: 0, count: newCapacity)
    count = 0
    for position in 0..<oldCapacity where old[position] != 0 {
      let tag = old[position] & 0xFFFF_FFFF
      var value = old[position] >> 32
      if halving {
        value >>= 1
        if value == 0 { continue }
      }
      var slot = home(UInt32(truncatingIfNeeded: tag &- 1))
      while entries[slot] != 0 { slot = (slot &+ 1) & (newCapacity &- 1) }
      entries[slot] = tag | value << 32
      count += 1
    }
    old.deallocate()
  }

  /// Bytes the table holds.
  var memoryFootprint: Int { capacity * 8 }
}
