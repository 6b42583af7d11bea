/// The head, tail, length and total size of a doubly linked list threaded through a
/// ``SlotArena``'s nodes.
///
/// Convention: the head is the newest (most recently inserted or promoted) entry, the
/// tail the oldest. A policy keeps one `SlotList` per queue (e.g. S3-FIFO's small, main
/// and ghost queues); an entry belongs to at most one list at a time.
@frozen
public struct SlotList: Sendable {
  /// Newest entry, or -1 when empty.
  public var head: Int32 = -1
  /// Oldest entry, or -1 when empty.
  public var tail: Int32 = -1
  /// Number of entries.
  public var count: Int = 0
  /// Sum of the entries' sizes.
  public var bytes: Int64 = 0

  /// Creates an empty list.
  @inlinable
  public init() {}

  /// Whether the list has no entries.
  @inlinable public var isEmpty: Bool { head < 0 }
}

extension SlotArena {
  /// Links `slot` in front of `list`'s head. O(1).
  @inlinable @inline(__always)
  public mutating func pushFront(_ slot: Int32, to list: inout SlotList) {
    let node = nodes + Int(slot)
    node.pointee.prev = -1
    node.pointee.next = list.head
    if list.head >= 0 { nodes[Int(list.head)].prev = slot } else { list.tail = slot }
    list.head = slot
    list.count += 1
    list.bytes += node.pointee.size
  }

  /// Links `slot` behind `list`'s tail. O(1).
  @inlinable @inline(__always)
  public mutating func pushBack(_ slot: Int32, to list: inout SlotList) {
    let node = nodes + Int(slot)
    node.pointee.next = -1
    node.pointee.prev = list.tail
    if list.tail >= 0 { nodes[Int(list.tail)].next = slot } else { list.head = slot }
    list.tail = slot
    list.count += 1
    list.bytes += node.pointee.size
  }

  /// Unlinks `slot` from `list`, which must contain it. O(1).
  @inlinable @inline(__always)
  public mutating func unlink(_ slot: Int32, from list: inout SlotList) {
    let node = nodes + Int(slot)
    let prev = node.pointee.prev
    let next = node.pointee.next
    if prev >= 0 { nodes[Int(prev)].next = next } else { list.head = next }
    if next >= 0 { nodes[Int(next)].prev = prev } else { list.tail = prev }
    list.count -= 1
    list.bytes -= node.pointee.size
  }

  /// Moves `slot`, already in `list`, to the head. O(1).
  @inlinable @inline(__always)
  public mutating func moveToFront(_ slot: Int32, in list: inout SlotList) {
    guard list.head != slot else { return }
    let node = nodes + Int(slot)
    let prev = node.pointee.prev
    let next = node.pointee.next
    // `slot` is not the head, so it has a predecessor.
    nodes[Int(prev)].next = next
    if next >= 0 { nodes[Int(next)].prev = prev } else { list.tail = prev }
    node.pointee.prev = -1
    node.pointee.next = list.head
    nodes[Int(list.head)].prev = slot
    list.head = slot
  }

  /// Unlinks and returns the tail of `list`, which must not be empty. O(1).
  @inlinable @inline(__always)
  public mutating func popBack(from list: inout SlotList) -> Int32 {
    let slot = list.tail
    unlink(slot, from: &list)
    return slot
  }

  /// Unlinks `slot` from `list` and frees it, returning what it held. O(1).
  @inlinable @inline(__always)
  public mutating func evict(_ slot: Int32, from list: inout SlotList) -> Victim {
    let node = nodes + Int(slot)
    let victim = Victim(key: node.pointee.key, size: node.pointee.size, slot: slot)
    unlink(slot, from: &list)
    remove(slot)
    return victim
  }

  /// Walks `list` from head to tail and checks its links, length and byte total, and that
  /// each node is live and passes `check`.
  ///
  /// - Complexity: O(list length); for tests and debug runs.
  public func checkList(
    _ list: SlotList, named name: String,
    _ check: (SlotNode<Extra>) throws(InvariantViolation) -> Void = { _ in }
  ) throws(InvariantViolation) {
    var count = 0
    var bytes: Int64 = 0
    var previous: Int32 = -1
    var slot = list.head
    while slot >= 0 {
      guard isLive(slot) else { throw InvariantViolation("\(name): slot \(slot) is not live") }
      let node = self[slot]
      guard node.prev == previous else {
        throw InvariantViolation("\(name): slot \(slot) has prev \(node.prev), expected \(previous)")
      }
      try check(node)
      count += 1
      bytes += node.size
      guard count <= self.count else { throw InvariantViolation("\(name): list cycles") }
      previous = slot
      slot = node.next
    }
    guard previous == list.tail else {
      throw InvariantViolation("\(name): tail is \(list.tail), walk ended at \(previous)")
    }
    guard count == list.count, bytes == list.bytes else {
      throw InvariantViolation(
        "\(name): walked \(count) entries / \(bytes) bytes, list says \(list.count) / \(list.bytes)")
    }
  }
}

extension SlotArena {
  /// Whether `key` has an entry.
  @inlinable
  public func contains(_ key: UInt64) -> Bool { find(key) >= 0 }

  /// Removes `key` from `list` and frees its slot, if present. O(1).
  @inlinable
  public mutating func evict(key: UInt64, from list: inout SlotList) -> Victim? {
    let slot = find(key)
    return slot < 0 ? nil : evict(slot, from: &list)
  }

  /// Checks each of `lists` (called `names` in messages) as ``checkList(_:named:_:)`` does,
  /// that each node is in the list `membership` says, and that together the lists hold every
  /// entry of the arena.
  ///
  /// - Complexity: O(entries); for tests and debug runs.
  public func checkPartition(
    _ lists: [SlotList], named names: [String], membership: (SlotNode<Extra>) -> Int
  ) throws(InvariantViolation) {
    var total = 0
    for index in lists.indices {
      try checkList(lists[index], named: names[index]) { node throws(InvariantViolation) in
        let owner = membership(node)
        guard owner == index else { throw InvariantViolation("\(names[index]) holds an entry of list \(owner)") }
      }
      total += lists[index].count
    }
    guard total == count else { throw InvariantViolation("lists hold \(total) of \(count) entries") }
  }

  /// Checks the hash index and `list`, which must hold every entry of the arena.
  ///
  /// - Complexity: O(entries); for tests and debug runs.
  public func checkSoleList(
    _ list: SlotList, named name: String,
    _ check: (SlotNode<Extra>) throws(InvariantViolation) -> Void = { _ in }
  ) throws(InvariantViolation) {
    try checkIndex()
    try checkList(list, named: name, check)
    guard list.count == count else {
      throw InvariantViolation("\(name) holds \(list.count) of \(count) entries")
    }
  }
}
