import CacheCore

/// Per-object state that records the object's index in a ``SampledObjects`` dense array.
public protocol DenseIndexed {
  /// Index in the dense array.
  var denseIndex: Int32 { get set }
}

extension Int32: DenseIndexed {
  @inlinable public var denseIndex: Int32 {
    get { self }
    set { self = newValue }
  }
}

/// The storage of the sampling policies (Random, Hyperbolic): cached objects in an arena plus
/// a dense array of their slots, so a uniformly random object is drawn in O(1) and removed by
/// swapping the last one into its place.
public struct SampledObjects<Extra: DenseIndexed>: ~Copyable {
  @usableFromInline var arena: SlotArena<Extra>
  @usableFromInline var dense: [Int32] = []
  @usableFromInline var bytes: Int64 = 0

  init(capacity: Int64) {
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    dense.reserveCapacity(initialSlotCapacity(for: capacity))
  }

  /// Number of cached objects.
  @inlinable var count: Int { dense.count }

  /// The slot at dense position `index`.
  @inlinable func slot(at index: Int) -> Int32 { dense[index] }

  /// Caches a new object; `extra.denseIndex` is set here.
  @inlinable
  mutating func insert(_ request: Request, extra: Extra) {
    var state = extra
    state.denseIndex = Int32(dense.count)
    dense.append(arena.insert(key: request.key, size: request.size, extra: state))
    bytes += request.size
  }

  /// Removes the object at `slot`.
  @inlinable
  mutating func release(_ slot: Int32) -> Victim {
    let index = Int(arena[slot].extra.denseIndex)
    let last = dense.removeLast()
    if last != slot {
      dense[index] = last
      arena[last].extra.denseIndex = Int32(index)
    }
    let victim = Victim(key: arena[slot].key, size: arena[slot].size)
    bytes -= victim.size
    arena.remove(slot)
    return victim
  }

  /// Removes `key` if cached.
  mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    return slot < 0 ? nil : release(slot)
  }

  /// Checks the index, the dense array against the arena and the byte total.
  func check() throws(InvariantViolation) {
    try arena.checkIndex()
    guard dense.count == arena.count else {
      throw InvariantViolation("dense array holds \(dense.count) of \(arena.count) entries")
    }
    var total: Int64 = 0
    for index in 0..<dense.count {
      let slot = dense[index]
      guard arena.isLive(slot), arena[slot].extra.denseIndex == Int32(index) else {
        throw InvariantViolation("dense index \(index) and slot \(slot) disagree")
      }
      total += arena[slot].size
    }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
  }
}

extension SampledObjects {
  /// Bytes of memory the arena and the dense index hold.
  public var memoryFootprint: Int { arena.memoryFootprint + dense.count * MemoryLayout<Int32>.stride }
}
