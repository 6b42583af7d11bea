import CacheCore

/// Key → metadata storage for a tier: a compact hash arena (32-byte nodes: a lookup touches
/// little memory) and the metadata in a parallel buffer indexed by the arena's slot, read
/// and updated in place only for an object found. No allocation once both have grown to
/// their peak; the buffer is owned here (the table cannot be copied), so an access costs
/// no uniqueness check or reference counting.
struct MetadataTable: ~Copyable {
  private var index: SlotArena<Void>
  private var values: UnsafeMutablePointer<EntryMetadata>
  /// Slots of `values` allocated; slots below the arena's slot limit are initialised.
  private var allocated: Int
  private var initialised = 0

  init(initialCapacity: Int) {
    index = SlotArena(initialCapacity: initialCapacity)
    allocated = max(initialCapacity, 16)
    values = .allocate(capacity: allocated)
  }

  deinit {
    values.deinitialize(count: initialised)
    values.deallocate()
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
    nonmutating set { values[Int(slot)] = newValue }
  }

  /// The metadata at a live `slot`, to update in place; valid until the next insertion.
  @inline(__always)
  func pointer(to slot: Int32) -> UnsafeMutablePointer<EntryMetadata> { values + Int(slot) }

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
    let position = Int(slot)
    if position < initialised {
      values[position] = metadata
      return slot
    }
    if position == allocated {
      let grown = UnsafeMutablePointer<EntryMetadata>.allocate(capacity: allocated * 2)
      grown.moveInitialize(from: values, count: initialised)
      values.deallocate()
      values = grown
      allocated *= 2
    }
    (values + position).initialize(to: metadata)
    initialised += 1
    return slot
  }

  /// Frees a live `slot`.
  mutating func remove(_ slot: Int32) { index.remove(slot) }

  /// Calls `body` with every live slot in order.
  func forEachLiveSlot(_ body: (Int32) -> Void) { index.forEachLiveSlot(body) }

  /// Checks the hash index.
  func checkIndex() throws(InvariantViolation) { try index.checkIndex() }
}
