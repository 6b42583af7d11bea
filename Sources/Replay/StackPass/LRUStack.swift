import CPrefetch
import CacheCore

/// The LRU recency stack of a trace (Mattson et al. 1970): every object seen, ordered by its
/// last request. ``access(key:size:)`` returns the object's stack distance, the bytes (or
/// objects) of it and everything requested since its last request, so it hits in an LRU
/// cache of any size at least that distance.
///
/// Each request takes a new position in time order. Sizes sit at positions (one cache line
/// per 8), with a sum per 8 positions (one line per 64) and a Fenwick tree over the sums of
/// 64 that stays in L2, so a distance reads about two lines from memory and costs
/// O(log(positions / 64)). Whether a position is live is a bit. Positions are renumbered when
/// they run out, so memory is O(objects) — about 36 B of hash arena and at most 56 B of
/// positions per object — whatever the trace's length. Nothing allocates per request.
struct LRUStack: ~Copyable {
  /// Key to slot; a node's `extra` is the object's position.
  private var arena = SlotArena<Int32>(initialCapacity: 1 << 16)
  /// Per position: its size (0 when dead) and the slot that took it (stale when dead).
  private var sizes: UnsafeMutablePointer<Int64>
  private var owners: UnsafeMutablePointer<Int32>
  /// One bit per position: live.
  private var live: UnsafeMutablePointer<UInt64>
  /// Per 8 positions: the sum of their sizes; and a Fenwick tree (1-based) over the sums of
  /// 64 positions.
  private var groupSums: UnsafeMutablePointer<Int64>
  private var tree: UnsafeMutablePointer<Int64>
  private var positionCapacity: Int
  /// The next position to hand out.
  private var next = 0
  /// Sum of the live sizes.
  private(set) var totalSize: Int64 = 0
  /// The size a known object entered with, as of the last ``access(key:size:)``.
  private(set) var lastStoredSize: Int64 = 0
  /// The ``PeakTracker``s, one per threshold reached so far (at most 47: 2^63 objects).
  private var trackerSlots: UnsafeMutablePointer<PeakTracker>
  private var trackerCount = 0

  static let groupShift = 3
  static let blockShift = 6

  init() {
    positionCapacity = 1 << 17
    (sizes, owners, live, groupSums, tree) = Self.allocate(positionCapacity)
    trackerSlots = .allocate(capacity: 48)
    live.initialize(repeating: 0, count: positionCapacity >> 6)
    rebuildSums()
  }

  deinit {
    Self.deallocate(sizes, owners, live, groupSums, tree)
    trackerSlots.deallocate()
  }

  /// Arrays for `capacity` positions, the sizes and sums aligned to cache lines.
  private static func allocate(_ capacity: Int) -> (
    UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt64>,
    UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
  ) {
    func lines<T>(_ count: Int, _ type: T.Type) -> UnsafeMutablePointer<T> {
      UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<T>.stride, alignment: 64)
        .bindMemory(to: T.self, capacity: count)
    }
    return (
      lines(capacity, Int64.self), .allocate(capacity: capacity), .allocate(capacity: capacity >> 6),
      lines(capacity >> groupShift, Int64.self), .allocate(capacity: (capacity >> blockShift) + 1)
    )
  }

  private static func deallocate(
    _ sizes: UnsafeMutablePointer<Int64>, _ owners: UnsafeMutablePointer<Int32>, _ live: UnsafeMutablePointer<UInt64>,
    _ groupSums: UnsafeMutablePointer<Int64>, _ tree: UnsafeMutablePointer<Int64>
  ) {
    UnsafeMutableRawPointer(sizes).deallocate()
    owners.deallocate()
    live.deallocate()
    UnsafeMutableRawPointer(groupSums).deallocate()
    tree.deallocate()
  }

  /// Distinct objects on the stack. O(1).
  var objectCount: Int { arena.count }

  /// The peak trackers so far.
  var trackers: [PeakTracker] { Array(UnsafeBufferPointer(start: trackerSlots, count: trackerCount)) }

  /// Starts loading what the access of `key` will touch, in three stages a few requests
  /// apart: its hash bucket (1), its node (2), and the sizes and sums at its position (3).
  @inline(__always)
  func prefetch(_ key: UInt64, stage: Int) {
    switch stage {
    case 1: arena.prefetchBucket(of: key)
    case 2: arena.prefetchNode(of: key)
    default:
      let slot = arena.find(key)
      guard slot >= 0 else { return }
      let position = Int(arena[slot].extra)
      cachelab_prefetch(sizes + position)
      cachelab_prefetch(groupSums + ((position >> Self.blockShift) << (Self.blockShift - Self.groupShift)))
    }
  }

  /// Moves `key` to the top of the stack and returns its distance before the move (the sizes
  /// of it and of every object above it), or `nil` on its first request, when it enters with
  /// `size`. A known object keeps the size it entered with. O(log(positions)) amortised.
  @inline(__always)
  mutating func access(key: UInt64, size: Int64) -> Int64? {
    if next == positionCapacity { compact() }
    let time = next
    next += 1
    let slot = arena.find(key)
    if slot < 0 {
      let fresh = arena.insert(key: key, size: size, extra: Int32(time))
      place(fresh, size: size, at: time)
      totalSize += size
      for index in 0..<trackerCount { trackerSlots[index].enter(size: size, sizes: sizes, live: live) }
      if arena.count == PeakTracker.threshold(trackerCount) {
        (trackerSlots + trackerCount).initialize(to: PeakTracker(boundary: nextLive(from: 0), window: totalSize))
        trackerCount += 1
      }
      return nil
    }
    let old = Int(arena[slot].extra)
    let stored = sizes[old]
    lastStoredSize = stored
    let distance = sizesFrom(old)
    sizes[old] = 0
    live[old >> 6] &= ~(1 << UInt64(old & 63))
    add(-stored, at: old)
    place(slot, size: stored, at: time)
    arena[slot].extra = Int32(time)
    for index in 0..<trackerCount {
      trackerSlots[index].moved(from: old, size: stored, sizes: sizes, live: live)
    }
    return distance
  }

  @inline(__always)
  private func isLive(_ position: Int) -> Bool { live[position >> 6] & (1 << UInt64(position & 63)) != 0 }

  /// How many of the most recent objects fit in each of `capacities` (ascending): the
  /// longest prefix of the stack whose sizes sum to at most the capacity, the objects an LRU
  /// cache of that size holds now. O(objects walked + capacities).
  func residents(_ capacities: [Int64]) -> [Int] {
    var result = [Int](repeating: 0, count: capacities.count)
    var index = 0
    var held = 0
    var sum: Int64 = 0
    var position = next - 1
    while index < capacities.count {
      // Skip dead positions; stop at the bottom of the stack.
      while position >= 0 && !isLive(position) { position -= 1 }
      if position < 0 { break }
      let size = sizes[position]
      while index < capacities.count && sum + size > capacities[index] {
        result[index] = held
        index += 1
      }
      sum += size
      held += 1
      position -= 1
    }
    while index < capacities.count {
      result[index] = held
      index += 1
    }
    return result
  }

  /// Checks the sums, the positions and the arena against each other. O(positions).
  func checkInvariants() -> String? {
    var count = 0
    var sum: Int64 = 0
    for position in 0..<next where isLive(position) {
      count += 1
      sum += sizes[position]
      if Int(arena[owners[position]].extra) != position { return "position \(position) is not its object's" }
    }
    if count != arena.count { return "\(count) live positions for \(arena.count) objects" }
    if sum != totalSize || (next > 0 && sizesFrom(0) != totalSize) {
      return "the size sums do not add up to the stack's size"
    }
    for tracker in trackers {
      var window: Int64 = 0
      for position in tracker.boundary..<next where isLive(position) { window += sizes[position] }
      if window != tracker.window { return "a peak tracker's window is off" }
    }
    return nil
  }

  @inline(__always)
  private mutating func place(_ slot: Int32, size: Int64, at position: Int) {
    sizes[position] = size
    owners[position] = slot
    live[position >> 6] |= 1 << UInt64(position & 63)
    add(size, at: position)
  }

  /// Sum of the sizes at `position` and above: the rest of its group of 8, the groups after
  /// it in its block of 64, then the blocks above from the tree.
  @inline(__always)
  private func sizesFrom(_ position: Int) -> Int64 {
    var sum: Int64 = 0
    let groupEnd = (position | ((1 << Self.groupShift) - 1)) + 1
    var scan = position
    while scan < groupEnd {
      sum &+= sizes[scan]
      scan += 1
    }
    let block = position >> Self.blockShift
    let groupsEnd = (block + 1) << (Self.blockShift - Self.groupShift)
    var group = position >> Self.groupShift + 1
    while group < groupsEnd {
      sum &+= groupSums[group]
      group += 1
    }
    // The blocks up to and including this one, from the tree; the rest is above.
    var throughBlock: Int64 = 0
    var node = block + 1
    while node > 0 {
      throughBlock &+= tree[node]
      node &= node - 1
    }
    return totalSize &- throughBlock &+ sum
  }

  @inline(__always)
  private mutating func add(_ delta: Int64, at position: Int) {
    groupSums[position >> Self.groupShift] &+= delta
    let count = positionCapacity >> Self.blockShift
    var node = (position >> Self.blockShift) + 1
    while node <= count {
      tree[node] &+= delta
      node += node & -node
    }
  }

  private func nextLive(from position: Int) -> Int {
    var scan = position
    while !isLive(scan) { scan += 1 }
    return scan
  }

  /// Renumbers the live positions 0..<objects in order (growing the arrays to twice the
  /// objects when needed) and rebuilds the sums. O(positions), once per
  /// `positions − objects` requests.
  private mutating func compact() {
    var capacity = positionCapacity
    while capacity < 2 * arena.count + (1 << 16) { capacity *= 2 }
    let fresh = capacity == positionCapacity ? (sizes, owners, live, groupSums, tree) : Self.allocate(capacity)
    var moved = 0
    for position in 0..<next where isLive(position) {
      for index in 0..<trackerCount where trackerSlots[index].boundary == position {
        trackerSlots[index].boundary = moved
      }
      let slot = owners[position]
      fresh.0[moved] = sizes[position]
      fresh.1[moved] = slot
      arena[slot].extra = Int32(moved)
      moved += 1
    }
    (fresh.0 + moved).initialize(repeating: 0, count: capacity - moved)
    (fresh.1 + moved).initialize(repeating: -1, count: capacity - moved)
    fresh.2.initialize(repeating: 0, count: capacity >> 6)
    for position in 0..<moved { fresh.2[position >> 6] |= 1 << UInt64(position & 63) }
    if capacity != positionCapacity {
      Self.deallocate(sizes, owners, live, groupSums, tree)
      (sizes, owners, live, groupSums, tree, positionCapacity) = (fresh.0, fresh.1, fresh.2, fresh.3, fresh.4, capacity)
    }
    next = moved
    rebuildSums()
  }

  /// Sums every group and builds the Fenwick tree over the blocks. O(positions).
  private mutating func rebuildSums() {
    if next == 0 {
      sizes.initialize(repeating: 0, count: positionCapacity)
      owners.initialize(repeating: -1, count: positionCapacity)
    }
    let groups = positionCapacity >> Self.groupShift
    for group in 0..<groups {
      var sum: Int64 = 0
      let start = group << Self.groupShift
      for position in start..<start + (1 << Self.groupShift) { sum &+= sizes[position] }
      groupSums[group] = sum
    }
    let count = positionCapacity >> Self.blockShift
    tree.initialize(repeating: 0, count: count + 1)
    let perBlock = 1 << (Self.blockShift - Self.groupShift)
    for block in 0..<count {
      var sum: Int64 = 0
      for group in block * perBlock..<(block + 1) * perBlock { sum &+= groupSums[group] }
      tree[block + 1] &+= sum
    }
    for node in stride(from: 1, through: count, by: 1) {
      let parent = node + (node & -node)
      if parent <= count { tree[parent] &+= tree[node] }
    }
  }
}

/// Follows the total size of the `threshold` most recent objects through the trace, and its
/// minimum: an LRU cache of capacity C held `threshold` objects at once at some point exactly
/// when that minimum is at most C (every object fits C: the pass runs only at such sizes).
/// That tells which power of two an LRU arena grew to without simulating it. O(1) amortised
/// per request.
struct PeakTracker {
  /// The position of the `threshold`-th most recent object.
  var boundary: Int
  /// The sizes of the `threshold` most recent objects, and the smallest that sum has been.
  var window: Int64
  var smallestWindow: Int64

  init(boundary: Int, window: Int64) {
    self.boundary = boundary
    self.window = window
    smallestWindow = window
  }

  /// The object count tracker `index` follows: 65,536 · 2^index + 1, the counts past which an
  /// LRU arena sized for 64 Ki objects doubles.
  static func threshold(_ index: Int) -> Int { (1 << (16 + index)) + 1 }

  /// The largest count an LRU arena of `capacity` was shown to have held at once by
  /// `trackers` (the threshold of the largest whose window fit), or 0.
  static func peak(capacity: Int64, _ trackers: [PeakTracker]) -> Int {
    var peak = 0
    for (index, tracker) in trackers.enumerated() where tracker.smallestWindow <= capacity {
      peak = threshold(index)
    }
    return peak
  }

  /// A new object of `size` entered at the top: the oldest of the window leaves it.
  @inline(__always)
  mutating func enter(size: Int64, sizes: UnsafeMutablePointer<Int64>, live: UnsafeMutablePointer<UInt64>) {
    window &+= size &- sizes[boundary]
    cachelab_prefetch(sizes + boundary + 64)
    advance(live)
    smallestWindow = min(smallestWindow, window)
  }

  /// An object of `size` moved from position `old` to the top.
  @inline(__always)
  mutating func moved(
    from old: Int, size: Int64, sizes: UnsafeMutablePointer<Int64>, live: UnsafeMutablePointer<UInt64>
  ) {
    if old > boundary { return }
    if old == boundary {
      advance(live)
      return
    }
    enter(size: size, sizes: sizes, live: live)
  }

  @inline(__always)
  private mutating func advance(_ live: UnsafeMutablePointer<UInt64>) {
    boundary += 1
    while live[boundary >> 6] & (1 << UInt64(boundary & 63)) == 0 { boundary += 1 }
  }
}
