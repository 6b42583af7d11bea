import CacheCore

/// A tier's per-object metadata in a buffer indexed by slot, read and updated in place.
///
/// The slots are the policy's own when its slots are stable (``indexed`` false: the table
/// keeps no index, so an operation costs the policy's one lookup), otherwise those of a
/// compact hash index the table keeps (32-byte nodes: a lookup touches little memory). No
/// allocation once the buffers have grown to their peak; they are owned here (the table
/// cannot be copied), so an access costs no uniqueness check or reference counting.
struct MetadataTable: ~Copyable {
  /// Whether the table keeps its own key → slot index (else the caller supplies slots).
  let indexed: Bool
  private var index: SlotArena<Void>
  private var keys: UnsafeMutablePointer<UInt64>
  private var values: UnsafeMutablePointer<EntryMetadata>
  /// Slots the buffers hold; those below `initialised` have been written.
  private var allocated: Int
  private var initialised = 0

  init(initialCapacity: Int, indexed: Bool = true) {
    self.indexed = indexed
    index = SlotArena(initialCapacity: indexed ? initialCapacity : 16)
    allocated = max(initialCapacity, 1)
    keys = .allocate(capacity: allocated)
    values = .allocate(capacity: allocated)
  }

  deinit {
    values.deinitialize(count: initialised)
    values.deallocate()
    keys.deallocate()
  }

  /// Objects held (indexed tables only).
  var count: Int { index.count }
  /// One past the highest slot written.
  var slotLimit: Int32 { Int32(initialised) }

  /// The slot holding `key`, or -1 (indexed tables only).
  @inline(__always)
  func find(_ key: UInt64) -> Int32 { index.find(key) }

  /// The metadata at a held `slot`.
  @inline(__always)
  subscript(slot: Int32) -> EntryMetadata {
    get { values[Int(slot)] }
    nonmutating set { values[Int(slot)] = newValue }
  }

  /// The metadata at a held `slot`, to update in place; valid until the next insertion.
  @inline(__always)
  func pointer(to slot: Int32) -> UnsafeMutablePointer<EntryMetadata> { values + Int(slot) }

  /// The key last written at `slot` (below ``slotLimit``).
  @inline(__always)
  func key(_ slot: Int32) -> UInt64 { keys[Int(slot)] }

  /// Whether `slot` holds an object (indexed tables only).
  func isLive(_ slot: Int32) -> Bool { index.isLive(slot) }

  /// Adds `key` (absent) with its metadata under a new slot of the index; returns the slot.
  @discardableResult
  mutating func insert(key: UInt64, size: Int64, metadata: EntryMetadata) -> Int32 {
    let slot = index.insert(key: key, size: size, extra: ())
    write(key, metadata, at: slot)
    return slot
  }

  /// Adds `key` (absent) under a new slot of the index; returns the storage for its
  /// metadata, to write in place (it holds a placeholder until then).
  @inline(__always)
  mutating func insert(key: UInt64, size: Int64) -> UnsafeMutablePointer<EntryMetadata> {
    storage(for: key, at: index.insert(key: key, size: size, extra: ()))
  }

  /// Writes `key` and its metadata at `slot` (the policy's slot of an unindexed table),
  /// growing the buffers as needed.
  @inline(__always)
  mutating func write(_ key: UInt64, _ metadata: EntryMetadata, at slot: Int32) {
    storage(for: key, at: slot).pointee = metadata
  }

  /// Records `key` at `slot` and returns the slot's metadata storage, to write in place,
  /// growing the buffers as needed. A slot never written before holds a placeholder (as do
  /// any skipped below it, so that every slot below `initialised` is valid).
  @inline(__always)
  mutating func storage(for key: UInt64, at slot: Int32) -> UnsafeMutablePointer<EntryMetadata> {
    let position = Int(slot)
    if position >= initialised { initialise(through: position) }
    keys[position] = key
    return values + position
  }

  /// Initialises the slots from `initialised` through `position` with placeholders.
  @inline(never)
  private mutating func initialise(through position: Int) {
    if position >= allocated { grow(to: position + 1) }
    while initialised <= position {
      (keys + initialised).initialize(to: 0)
      (values + initialised).initialize(to: .placeholder)
      initialised += 1
    }
  }

  private mutating func grow(to minimum: Int) {
    var capacity = allocated * 2
    while capacity < minimum { capacity *= 2 }
    keys = .regrow(keys, moving: initialised, to: capacity)
    values = .regrow(values, moving: initialised, to: capacity)
    allocated = capacity
  }

  /// Frees a held `slot` of the index (nothing to do without one: the policy freed it).
  mutating func remove(_ slot: Int32) {
    if indexed { index.remove(slot) }
  }

  /// Calls `body` with every live slot of the index in order.
  func forEachLiveSlot(_ body: (Int32) -> Void) { index.forEachLiveSlot(body) }

  /// Checks the hash index.
  func checkIndex() throws(InvariantViolation) { try index.checkIndex() }
}
