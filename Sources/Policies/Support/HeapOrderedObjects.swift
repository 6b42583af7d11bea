import CacheCore

/// The storage of the priority-ordered policies (LFUDA, GDSF, Belady, NSCache order): the
/// cached objects in an arena, ordered by a per-object key in an indexed min-heap, with their
/// total size.
public struct HeapOrderedObjects<Extra, Key: Comparable>: ~Copyable {
  @usableFromInline var arena: SlotArena<Extra>
  @usableFromInline var heap: IndexedHeap<Key>
  @usableFromInline var bytes: Int64 = 0

  init(capacity: Int64) {
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    heap = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  /// Bytes of the cached objects.
  @inlinable public var totalBytes: Int64 { bytes }
  /// Number of cached objects.
  @inlinable public var count: Int { arena.count }

  /// Caches a new object with heap key `priority`.
  @inlinable
  @discardableResult
  mutating func insert(_ request: Request, extra: Extra, priority: Key) -> Int32 {
    let slot = arena.insert(key: request.key, size: request.size, extra: extra)
    heap.insert(slot, key: priority)
    bytes += request.size
    return slot
  }

  /// Removes the object with the smallest key.
  @inlinable
  mutating func popMinimum() -> Victim {
    release(heap.popMinimum())
  }

  /// Frees the slot of an object already taken out of the heap.
  @inlinable
  mutating func release(_ slot: Int32) -> Victim { arena.release(slot, from: &bytes) }

  @inlinable
  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  /// Removes `key` if cached.
  @inlinable
  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    heap.remove(slot)
    return release(slot)
  }

  /// Checks the index, the heap order, one heap entry per object and the byte total.
  public func check() throws(InvariantViolation) {
    try arena.checkIndex()
    try heap.checkHeap()
    guard heap.count == arena.count else {
      throw InvariantViolation("heap holds \(heap.count) of \(arena.count) entries")
    }
    var total: Int64 = 0
    var missing = false
    arena.forEachLiveSlot { slot in
      total += arena[slot].size
      if !heap.contains(slot) { missing = true }
    }
    guard !missing else { throw InvariantViolation("a cached object is not in the heap") }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
  }
}

extension HeapOrderedObjects {
  /// Bytes of memory the arena and the heap hold.
  public var memoryFootprint: Int { arena.memoryFootprint + heap.memoryFootprint }
}
