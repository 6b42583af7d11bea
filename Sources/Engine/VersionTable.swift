import CPrefetch

/// Each key's latest origin version, in one open-addressing table (linear probing, 16-byte
/// entries, at most half full): a lookup costs one random memory access where a chained
/// index costs two (its bucket, then its node). Keys are never removed. Owned here (the
/// table cannot be copied), so an access costs no uniqueness check.
struct VersionTable: ~Copyable {
  private struct Entry {
    var key: UInt64
    /// ``VersionTable/vacant`` in an unused entry.
    var version: Int64
  }

  /// The version of an unused entry (real versions are never negative).
  private static let vacant = Int64.min
  private var entries: UnsafeMutablePointer<Entry>
  private var capacity: Int
  private var shift: UInt64
  /// Keys held.
  private(set) var count = 0

  /// An empty table with room for `initialCapacity / 2` keys before it grows.
  init(initialCapacity: Int = 1 << 10) {
    var bits = 4
    while 1 << bits < initialCapacity { bits += 1 }
    capacity = 1 << bits
    shift = UInt64(64 - bits)
    entries = .allocate(capacity: capacity)
    entries.initialize(repeating: Entry(key: 0, version: Self.vacant), count: capacity)
  }

  deinit { entries.deallocate() }

  /// The entry where the probe for `key` starts.
  @inline(__always)
  private func home(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) >> shift) }

  /// Where `key` is, or the unused entry where it would go. O(1) expected.
  @inline(__always)
  private func position(of key: UInt64) -> Int {
    var index = home(of: key)
    while entries[index].version != Self.vacant, entries[index].key != key {
      index = (index + 1) & (capacity - 1)
    }
    return index
  }

  /// Starts loading the entry where a lookup of `key` begins; changes nothing.
  @inline(__always)
  func prefetch(_ key: UInt64) {
    cachelab_prefetch(entries + home(of: key))
  }

  /// The version recorded for `key`, or nil.
  @inline(__always)
  func version(of key: UInt64) -> Int64? {
    let entry = entries[position(of: key)]
    return entry.version == Self.vacant ? nil : entry.version
  }

  /// Records `version` (not negative) for `key`.
  @inline(__always)
  mutating func set(_ key: UInt64, _ version: Int64) {
    let index = position(of: key)
    if entries[index].version == Self.vacant {
      if 2 * (count + 1) > capacity {
        grow()
        set(key, version)
        return
      }
      count += 1
      entries[index].key = key
    }
    entries[index].version = version
  }

  /// Doubles the table and re-inserts every key.
  private mutating func grow() {
    let old = entries
    let oldCapacity = capacity
    capacity *= 2
    shift -= 1
    entries = .allocate(capacity: capacity)
    entries.initialize(repeating: Entry(key: 0, version: Self.vacant), count: capacity)
    for index in 0..<oldCapacity where old[index].version != Self.vacant {
      entries[position(of: old[index].key)] = old[index]
    }
    old.deallocate()
  }
}
