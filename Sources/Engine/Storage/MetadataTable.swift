import CacheCore

/// Key → metadata storage for a tier: a compact hash arena (32-byte nodes: a lookup touches
/// little memory) and the metadata in a parallel array indexed by the arena's slot, read
/// only for an object found. No allocation once both have grown to their peak.
struct MetadataTable: ~Copyable {
  private var index: SlotArena<Void>
  private var values: [EntryMetadata] = []

  init(initialCapacity: Int) {
    index = SlotArena(initialCapacity: initialCapacity)
    values.reserveCapacity(initialCapacity)
  }

  /// Number of objects held.
  var count: Int { index.count }
  /// One past the highest slot ever used.
  var slotLimit: Int32 { index.slotLimit }

  /// The slot holding `key`, or -1.
  @inline(__always)
  func find(_ key: UInt64) -> Int32 { index.find(key) }

  /// The metadata at a live `slot`.
  @inline(__always)
  subscript(slot: Int32) -> EntryMetadata {
    get { values[Int(slot)] }
    set { values[Int(slot)] = newValue }
  }

  /// The key at a live `slot`.
  @inline(__always)
  func key(_ slot: Int32) -> UInt64 { index[slot].key }

  /// Records the units a live `slot` takes.
  mutating func setSize(_ slot: Int32, _ size: Int64) { index[slot].size = size }

  /// Whether `slot` holds an object.
  func isLive(_ slot: Int32) -> Bool { index.isLive(slot) }

  /// Adds `key` (absent) with its metadata; returns its slot.
  @discardableResult
  mutating func insert(key: UInt64, size: Int64, metadata: EntryMetadata) -> Int32 {
    let slot = index.insert(key: key, size: size, extra: ())
    if Int(slot) == values.count { values.append(metadata) } else { values[Int(slot)] = metadata }
    return slot
  }

  /// Frees a live `slot`.
  mutating func remove(_ slot: Int32) { index.remove(slot) }

  /// Calls `body` with every live slot in order.
  func forEachLiveSlot(_ body: (Int32) -> Void) { index.forEachLiveSlot(body) }

  /// Checks the hash index.
  func checkIndex() throws(InvariantViolation) { try index.checkIndex() }
}
