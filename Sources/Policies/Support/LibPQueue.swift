import CacheCore

/// libCacheSim's priority queue (`dataStructure/pqueue.c`, Volkan Yazıcı's libpqueue as
/// libCacheSim modified it) over arena slots: a 1-based binary max-heap whose sift steps move
/// a node only past a strictly lower priority, and whose pop, removal and priority change
/// follow the C function by function, so that equal priorities leave in exactly the order
/// they leave there. Storage: 4 bytes of heap entry, 4 of position and 8 of priority per slot.
///
/// - Complexity: insert, pop, remove and change are O(log n); no allocation once the arrays
///   have grown to the peak number of slots.
@usableFromInline
struct LibPQueue {
  /// Heap entries (slots) at positions 1...; position 0 is unused, as in the C.
  @usableFromInline var entries: [Int32] = [-1]
  /// Priority and heap position of each slot.
  @usableFromInline var priorities: [Int64] = []
  @usableFromInline var positions: [Int32] = []

  @usableFromInline init() {}

  /// Entries in the heap.
  @inlinable var count: Int { entries.count - 1 }

  /// The highest-priority slot (the C `pqueue_peek`), or -1 when empty.
  @inlinable var top: Int32 { entries.count > 1 ? entries[1] : -1 }

  @inlinable
  func priority(of slot: Int32) -> Int64 { priorities[Int(slot)] }

  @inlinable
  mutating func place(_ slot: Int32, at index: Int) {
    entries[index] = slot
    positions[Int(slot)] = Int32(index)
  }

  /// `pqueue_insert`: appends `slot` with `priority` and sifts it up.
  @inlinable
  mutating func insert(_ slot: Int32, priority: Int64) {
    while priorities.count <= Int(slot) {
      priorities.append(0)
      positions.append(0)
    }
    priorities[Int(slot)] = priority
    entries.append(slot)
    bubbleUp(entries.count - 1)
  }

  /// `pqueue_pop`: removes and returns the root.
  @inlinable
  mutating func pop() -> Int32 {
    let head = entries[1]
    let last = entries.removeLast()
    if entries.count > 1 {
      place(last, at: 1)
      percolateDown(1)
    }
    return head
  }

  /// `pqueue_remove`: the last entry takes `slot`'s position and moves up or down.
  @inlinable
  mutating func remove(_ slot: Int32) {
    let index = Int(positions[Int(slot)])
    let last = entries.removeLast()
    guard index < entries.count else { return }
    place(last, at: index)
    if priorities[Int(slot)] < priorities[Int(last)] { bubbleUp(index) } else { percolateDown(index) }
  }

  /// `pqueue_change_priority`: up if the priority rose, else down.
  @inlinable
  mutating func change(_ slot: Int32, to priority: Int64) {
    let old = priorities[Int(slot)]
    priorities[Int(slot)] = priority
    let index = Int(positions[Int(slot)])
    if old < priority { bubbleUp(index) } else { percolateDown(index) }
  }

  @inlinable
  mutating func bubbleUp(_ start: Int) {
    var index = start
    let moving = entries[index]
    let priority = priorities[Int(moving)]
    while index > 1, priorities[Int(entries[index >> 1])] < priority {
      place(entries[index >> 1], at: index)
      index >>= 1
    }
    place(moving, at: index)
  }

  /// `maxchild`: the left child, or the right one when the left's priority is strictly lower.
  @inlinable
  func maxChild(_ index: Int) -> Int {
    let child = index << 1
    guard child < entries.count else { return 0 }
    if child + 1 < entries.count, priorities[Int(entries[child])] < priorities[Int(entries[child + 1])] {
      return child + 1
    }
    return child
  }

  @inlinable
  mutating func percolateDown(_ start: Int) {
    var index = start
    let moving = entries[index]
    let priority = priorities[Int(moving)]
    while true {
      let child = maxChild(index)
      guard child != 0, priority < priorities[Int(entries[child])] else { break }
      place(entries[child], at: index)
      index = child
    }
    place(moving, at: index)
  }

  /// Bytes held (arrays at their element counts).
  var memoryFootprint: Int { entries.count * 4 + priorities.count * 12 }

  /// Checks the heap order and the position index.
  func check() throws(InvariantViolation) {
    for index in 1..<entries.count {
      let slot = entries[index]
      guard Int(positions[Int(slot)]) == index else {
        throw InvariantViolation("heap position of slot \(slot) is stale")
      }
      if index > 1, priorities[Int(entries[index >> 1])] < priorities[Int(slot)] {
        throw InvariantViolation("heap order broken at position \(index)")
      }
    }
  }
}
