/// Counts distinct objects between two requests to the same object (LRU stack distance) in
/// O(log n) per request: a Fenwick tree over request positions marks each object's latest
/// request. Memory: 5 bytes per request seen (the tree grows by doubling).
struct ReuseDistanceCounter {
  private var tree: [Int32] = []
  private var marks: [UInt8] = []

  /// Grows to hold positions `0..<needed`.
  private mutating func reserve(_ needed: Int) {
    guard needed > marks.count else { return }
    var capacity = max(1024, marks.count)
    while capacity < needed { capacity *= 2 }
    marks += [UInt8](repeating: 0, count: capacity - marks.count)
    tree = [Int32](repeating: 0, count: capacity + 1)
    // Rebuild in O(capacity): each node adds itself to its parent.
    for index in 0..<marks.count where marks[index] != 0 { tree[index + 1] += 1 }
    for node in 1...capacity {
      let parent = node + (node & -node)
      if parent <= capacity { tree[parent] += tree[node] }
    }
  }

  private mutating func add(_ position: Int, _ delta: Int32) {
    var node = position + 1
    while node < tree.count {
      tree[node] += delta
      node += node & -node
    }
  }

  /// Marked positions in `0...position`.
  private func prefix(_ position: Int) -> Int {
    var node = position + 1
    var total = 0
    while node > 0 {
      total += Int(tree[node])
      node -= node & -node
    }
    return total
  }

  /// Records a request at `position` (increasing) whose object was last requested at
  /// `previous` (nil: first request); returns the number of distinct objects requested in
  /// between, or nil for a first request.
  mutating func record(position: Int, previous: Int?) -> Int? {
    reserve(position + 1)
    var distance: Int?
    if let previous {
      distance = prefix(position - 1) - prefix(previous)
      marks[previous] = 0
      add(previous, -1)
    }
    marks[position] = 1
    add(position, 1)
    return distance
  }
}
