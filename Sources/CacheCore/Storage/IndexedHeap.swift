/// A binary min-heap of arena slots ordered by a per-slot key, with each slot's position
/// tracked so that a slot's key can be changed or the slot removed in O(log n).
///
/// Used by priority policies (LFU, LFUDA, GDSF, Belady, NSCache order). Keys live in the
/// heap array next to their slots so sifting touches one contiguous buffer; positions are
/// indexed by slot. Nothing allocates once the heap has grown to its peak.
public struct IndexedHeap<Key: Comparable>: ~Copyable {
  @usableFromInline var heapSlots: UnsafeMutablePointer<Int32>
  @usableFromInline var heapKeys: UnsafeMutablePointer<Key>
  @usableFromInline var heapCapacity: Int
  @usableFromInline var positions: UnsafeMutablePointer<Int32>
  @usableFromInline var positionCapacity: Int
  @usableFromInline var _count = 0

  /// Creates an empty heap sized for `capacity` entries (it grows as needed).
  public init(capacity: Int = 1024) {
    let size = max(16, capacity)
    heapCapacity = size
    heapSlots = .allocate(capacity: size)
    heapKeys = .allocate(capacity: size)
    positionCapacity = size
    positions = .allocate(capacity: size)
    positions.initialize(repeating: -1, count: size)
  }

  deinit {
    heapKeys.deinitialize(count: _count)
    heapSlots.deallocate()
    heapKeys.deallocate()
    positions.deallocate()
  }

  /// Number of slots in the heap.
  @inlinable public var count: Int { _count }
  /// Whether the heap is empty.
  @inlinable public var isEmpty: Bool { _count == 0 }

  /// The slot with the smallest key (the heap must not be empty).
  @inlinable public var minimum: Int32 { heapSlots[0] }
  /// The smallest key (the heap must not be empty).
  @inlinable public var minimumKey: Key { heapKeys[0] }

  /// Whether `slot` is in the heap.
  @inlinable
  public func contains(_ slot: Int32) -> Bool {
    Int(slot) < positionCapacity && positions[Int(slot)] >= 0
  }

  /// The key of `slot`, which must be in the heap.
  @inlinable
  public func key(of slot: Int32) -> Key {
    heapKeys[Int(positions[Int(slot)])]
  }

  /// Adds `slot` (not yet in the heap) with `key`. O(log n).
  @inlinable
  public mutating func insert(_ slot: Int32, key: Key) {
    if _count == heapCapacity { growHeap() }
    if Int(slot) >= positionCapacity { growPositions(toInclude: Int(slot)) }
    (heapKeys + _count).initialize(to: key)
    heapSlots[_count] = slot
    positions[Int(slot)] = Int32(_count)
    _count += 1
    siftUp(_count - 1)
  }

  /// Changes the key of `slot`, which must be in the heap. O(log n).
  @inlinable
  public mutating func update(_ slot: Int32, key: Key) {
    let index = Int(positions[Int(slot)])
    let old = heapKeys[index]
    heapKeys[index] = key
    if key < old { siftUp(index) } else { siftDown(index) }
  }

  /// Removes and returns the slot with the smallest key. O(log n).
  @inlinable
  public mutating func popMinimum() -> Int32 {
    let slot = heapSlots[0]
    remove(at: 0)
    return slot
  }

  /// Removes `slot`, which must be in the heap. O(log n).
  @inlinable
  public mutating func remove(_ slot: Int32) {
    remove(at: Int(positions[Int(slot)]))
  }

  @inlinable
  mutating func remove(at index: Int) {
    let removed = heapSlots[index]
    positions[Int(removed)] = -1
    _count -= 1
    if index == _count {
      (heapKeys + _count).deinitialize(count: 1)
      return
    }
    heapKeys[index] = (heapKeys + _count).move()
    heapSlots[index] = heapSlots[_count]
    positions[Int(heapSlots[index])] = Int32(index)
    if index > 0 && heapKeys[index] < heapKeys[(index - 1) / 2] { siftUp(index) } else { siftDown(index) }
  }

  @inlinable
  mutating func siftUp(_ start: Int) {
    var index = start
    let key = (heapKeys + index).move()
    let slot = heapSlots[index]
    while index > 0 {
      let parent = (index - 1) / 2
      guard key < heapKeys[parent] else { break }
      (heapKeys + index).initialize(to: (heapKeys + parent).move())
      heapSlots[index] = heapSlots[parent]
      positions[Int(heapSlots[index])] = Int32(index)
      index = parent
    }
    (heapKeys + index).initialize(to: key)
    heapSlots[index] = slot
    positions[Int(slot)] = Int32(index)
  }

  @inlinable
  mutating func siftDown(_ start: Int) {
    var index = start
    let key = (heapKeys + index).move()
    let slot = heapSlots[index]
    while true {
      let left = 2 * index + 1
      guard left < _count else { break }
      let right = left + 1
      let child = right < _count && heapKeys[right] < heapKeys[left] ? right : left
      guard heapKeys[child] < key else { break }
      (heapKeys + index).initialize(to: (heapKeys + child).move())
      heapSlots[index] = heapSlots[child]
      positions[Int(heapSlots[index])] = Int32(index)
      index = child
    }
    (heapKeys + index).initialize(to: key)
    heapSlots[index] = slot
    positions[Int(slot)] = Int32(index)
  }

  @usableFromInline
  mutating func growHeap() {
    let size = heapCapacity * 2
    heapSlots = .regrow(heapSlots, moving: _count, to: size)
    heapKeys = .regrow(heapKeys, moving: _count, to: size)
    heapCapacity = size
  }

  @usableFromInline
  mutating func growPositions(toInclude slot: Int) {
    var size = positionCapacity * 2
    while size <= slot { size *= 2 }
    positions = .regrow(positions, moving: positionCapacity, to: size)
    (positions + positionCapacity).initialize(repeating: -1, count: size - positionCapacity)
    positionCapacity = size
  }

  /// Checks the heap order and the position index.
  ///
  /// - Complexity: O(n); for tests and debug runs.
  public func checkHeap() throws(InvariantViolation) {
    for index in 0..<_count {
      guard positions[Int(heapSlots[index])] == Int32(index) else {
        throw InvariantViolation("heap position of slot \(heapSlots[index]) is stale")
      }
      if index > 0, heapKeys[index] < heapKeys[(index - 1) / 2] {
        throw InvariantViolation("heap order broken at \(index)")
      }
    }
  }
}

extension IndexedHeap {
  /// Bytes of memory the heap holds (slots, keys and positions at their allocated sizes).
  public var memoryFootprint: Int {
    heapCapacity * (MemoryLayout<Int32>.stride + MemoryLayout<Key>.stride) + positionCapacity * 4
  }
}
