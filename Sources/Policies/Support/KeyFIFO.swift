import CacheCore

/// A FIFO of remembered keys bounded in bytes, with its own index (a key may be remembered
/// here while cached elsewhere): libCacheSim's FIFO cache used as a ghost or tracking queue.
/// O(1) expected per operation; allocation-free once grown.
public struct KeyFIFO: ~Copyable {
  @usableFromInline var arena: SlotArena<Void>
  @usableFromInline var list = SlotList()
  /// Most bytes of keys remembered.
  @usableFromInline let capacity: Int64

  init(capacity: Int64, initialSlots: Int) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlots)
  }

  /// Bytes remembered.
  @inlinable var bytes: Int64 { list.bytes }

  /// Remembers `key` at the head unless it is already remembered or larger than the whole
  /// FIFO, forgetting the oldest keys to make room (a FIFO cache's `get`).
  @inlinable
  mutating func remember(_ key: UInt64, size: Int64) {
    guard !arena.contains(key), size <= capacity else { return }
    while list.bytes + size > capacity { _ = arena.evict(list.tail, from: &list) }
    let slot = arena.insert(key: key, size: size, extra: ())
    arena.pushFront(slot, to: &list)
  }

  /// Whether `key` is remembered. O(1) expected.
  @inlinable
  func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  /// Forgets `key`; returns whether it was remembered.
  @inlinable
  mutating func take(_ key: UInt64) -> Bool {
    arena.evict(key: key, from: &list) != nil
  }

  /// Bytes of memory the index and nodes hold.
  var memoryFootprint: Int { arena.memoryFootprint }

  func check(named name: String) throws(InvariantViolation) {
    try arena.checkSoleList(list, named: name)
    guard list.bytes <= max(capacity, 0) else { throw InvariantViolation("\(name) holds \(list.bytes) > \(capacity)") }
  }
}
