import CPrefetch

/// One entry of a ``SlotArena``: the object's key and size, two list links and the
/// policy's own per-entry state.
///
/// With a 1–4 byte `Extra` a node is 32 bytes, two per cache line.
@frozen
public struct SlotNode<Extra> {
  /// The object identifier.
  public var key: UInt64
  /// The object's size (bytes, or 1 in object mode).
  public var size: Int64
  /// Previous node in the node's ``SlotList`` (towards the head), or -1.
  public var prev: Int32
  /// Next node in the node's ``SlotList`` (towards the tail), or -1; links free slots too.
  public var next: Int32
  /// Next node in the same hash bucket, -1 at the end, ``SlotArena/freeMark`` when free.
  @usableFromInline var chain: Int32
  /// Policy-specific state (a visited bit, a frequency, a segment number, ...).
  public var extra: Extra

  @inlinable
  init(key: UInt64, size: Int64, chain: Int32, extra: Extra) {
    self.key = key
    self.size = size
    self.prev = -1
    self.next = -1
    self.chain = chain
    self.extra = extra
  }
}

/// Index-addressed storage for cache entries: a node arena with a free list and an
/// intrusive chained hash index from key to slot.
///
/// Slots are `Int32` indices, stable for an entry's lifetime. Nodes live in one flat
/// buffer (no object per entry), so lookups and list moves touch one or two cache lines
/// and nothing allocates once the arena has grown to its peak size.
///
/// - Complexity: `find`, `insert` and `remove` are expected O(1) (load factor ≤ 1);
///   growth is amortised O(1).
public struct SlotArena<Extra>: ~Copyable {
  @usableFromInline var nodes: UnsafeMutablePointer<SlotNode<Extra>>
  @usableFromInline var nodeCapacity: Int32
  /// Slots `0..<highWater` have been handed out at least once.
  @usableFromInline var highWater: Int32
  @usableFromInline var freeHead: Int32
  @usableFromInline var liveCount: Int
  @usableFromInline var buckets: UnsafeMutablePointer<Int32>
  @usableFromInline var bucketCount: Int
  @usableFromInline var bucketShift: UInt64

  /// `chain` value of a slot on the free list.
  @usableFromInline static var freeMark: Int32 { -2 }

  /// Creates an empty arena with room for `initialCapacity` entries before it grows.
  public init(initialCapacity: Int = 1024) {
    let capacity = max(16, min(initialCapacity, Int(Int32.max / 2)))
    var bucketBits = 4
    while (1 << bucketBits) < capacity { bucketBits += 1 }
    nodeCapacity = Int32(capacity)
    nodes = .allocate(capacity: capacity)
    highWater = 0
    freeHead = -1
    liveCount = 0
    bucketCount = 1 << bucketBits
    bucketShift = UInt64(64 - bucketBits)
    buckets = .allocate(capacity: 1 << bucketBits)
    buckets.initialize(repeating: -1, count: 1 << bucketBits)
  }

  deinit {
    nodes.deinitialize(count: Int(highWater))
    nodes.deallocate()
    buckets.deallocate()
  }

  /// Number of live entries.
  @inlinable public var count: Int { liveCount }

  /// Bytes of memory the arena holds (nodes + hash buckets).
  public var memoryFootprint: Int {
    Int(nodeCapacity) * MemoryLayout<SlotNode<Extra>>.stride + bucketCount * 4
  }

  /// The ``memoryFootprint`` of an arena created with `initialCapacity` once at most
  /// `peakLiveCount` entries were live at a time (it grows only then, and never shrinks). O(log).
  public static func footprint(initialCapacity: Int, peakLiveCount: Int) -> Int {
    let start = max(16, min(initialCapacity, Int(Int32.max / 2)))
    var nodes = start
    while nodes < peakLiveCount { nodes *= 2 }
    var buckets = 16
    while buckets < start { buckets *= 2 }
    while buckets < peakLiveCount { buckets *= 2 }
    return nodes * MemoryLayout<SlotNode<Extra>>.stride + buckets * 4
  }

  @inlinable @inline(__always)
  func bucket(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) >> bucketShift)
  }

  /// Returns the slot holding `key`, or -1.
  @inlinable @inline(__always)
  public func find(_ key: UInt64) -> Int32 {
    var slot = buckets[bucket(of: key)]
    while slot >= 0 {
      let node = nodes + Int(slot)
      if node.pointee.key == key { return slot }
      slot = node.pointee.chain
    }
    return -1
  }

  /// Stores a new entry (the key must be absent) and returns its slot; the entry is in no list.
  ///
  /// The entry goes to the end of its hash chain, so chains run from old to new: the entry a
  /// queue evicts (usually its oldest) then heads its chain and leaves without a walk, and
  /// the walk here is over nodes the failed lookup before it has just loaded.
  @inlinable @inline(__always)
  public mutating func insert(key: UInt64, size: Int64, extra: Extra) -> Int32 {
    if liveCount >= bucketCount { growBuckets() }
    let b = bucket(of: key)
    let fresh = SlotNode(key: key, size: size, chain: -1, extra: extra)
    let slot: Int32
    if freeHead >= 0 {
      slot = freeHead
      freeHead = nodes[Int(slot)].next
      nodes[Int(slot)] = fresh
    } else {
      if highWater == nodeCapacity { growNodes() }
      slot = highWater
      highWater += 1
      (nodes + Int(slot)).initialize(to: fresh)
    }
    var last = buckets[b]
    if last < 0 {
      buckets[b] = slot
    } else {
      while nodes[Int(last)].chain >= 0 { last = nodes[Int(last)].chain }
      nodes[Int(last)].chain = slot
    }
    liveCount += 1
    return slot
  }

  /// Drops the entry at `slot` from the hash index and frees the slot. The caller must
  /// already have unlinked it from its list.
  @inlinable @inline(__always)
  public mutating func remove(_ slot: Int32) {
    let node = nodes + Int(slot)
    let b = bucket(of: node.pointee.key)
    if buckets[b] == slot {
      buckets[b] = node.pointee.chain
    } else {
      var previous = buckets[b]
      while nodes[Int(previous)].chain != slot { previous = nodes[Int(previous)].chain }
      nodes[Int(previous)].chain = node.pointee.chain
    }
    node.pointee.chain = Self.freeMark
    node.pointee.next = freeHead
    freeHead = slot
    liveCount -= 1
  }

  /// The node at `slot` (which must be live), read and written in place.
  @inlinable
  public subscript(slot: Int32) -> SlotNode<Extra> {
    unsafeAddress { UnsafePointer(nodes + Int(slot)) }
    unsafeMutableAddress { nodes + Int(slot) }
  }

  /// One past the highest slot ever handed out: every live slot is below it.
  @inlinable public var slotLimit: Int32 { highWater }

  /// Whether `slot` currently holds a live entry.
  @inlinable
  public func isLive(_ slot: Int32) -> Bool {
    slot >= 0 && slot < highWater && nodes[Int(slot)].chain != Self.freeMark
  }

  /// Calls `body` with every live slot, in slot order. O(high-water mark).
  @inlinable
  public func forEachLiveSlot(_ body: (Int32) throws -> Void) rethrows {
    var slot: Int32 = 0
    while slot < highWater {
      if nodes[Int(slot)].chain != Self.freeMark { try body(slot) }
      slot += 1
    }
  }

  @usableFromInline
  mutating func growNodes() {
    let newCapacity = Int(nodeCapacity) * 2
    precondition(newCapacity <= Int(Int32.max), "SlotArena: more than 2^31 entries")
    nodes = .regrow(nodes, moving: Int(highWater), to: newCapacity)
    nodeCapacity = Int32(newCapacity)
  }

  @usableFromInline
  mutating func growBuckets() {
    let newCount = bucketCount * 2
    buckets.deallocate()
    buckets = .allocate(capacity: newCount)
    buckets.initialize(repeating: -1, count: newCount)
    bucketCount = newCount
    bucketShift -= 1
    // Pushing at the heads from the highest slot down leaves each chain in slot order.
    var slot = highWater - 1
    while slot >= 0 {
      let node = nodes + Int(slot)
      if node.pointee.chain != Self.freeMark {
        let b = bucket(of: node.pointee.key)
        node.pointee.chain = buckets[b]
        buckets[b] = slot
      }
      slot -= 1
    }
  }

  /// Checks the hash index and free list against each other.
  ///
  /// - Complexity: O(entries + buckets); for tests and debug runs.
  public func checkIndex() throws(InvariantViolation) {
    var hashed = 0
    for b in 0..<bucketCount {
      var slot = buckets[b]
      while slot >= 0 {
        guard slot < highWater else { throw InvariantViolation("bucket \(b) points past the arena") }
        guard bucket(of: nodes[Int(slot)].key) == b else {
          throw InvariantViolation("key \(nodes[Int(slot)].key) hashed into the wrong bucket")
        }
        guard find(nodes[Int(slot)].key) == slot else {
          throw InvariantViolation("key \(nodes[Int(slot)].key) stored twice")
        }
        hashed += 1
        guard hashed <= liveCount else { throw InvariantViolation("hash chains hold a cycle") }
        slot = nodes[Int(slot)].chain
      }
    }
    guard hashed == liveCount else {
      throw InvariantViolation("\(hashed) hashed entries but count is \(liveCount)")
    }
    var free = 0
    var slot = freeHead
    while slot >= 0 {
      guard nodes[Int(slot)].chain == Self.freeMark else {
        throw InvariantViolation("free list holds live slot \(slot)")
      }
      free += 1
      guard free <= Int(highWater) else { throw InvariantViolation("free list cycles") }
      slot = nodes[Int(slot)].next
    }
    guard free + liveCount == Int(highWater) else {
      throw InvariantViolation("\(free) free + \(liveCount) live != \(highWater) slots")
    }
  }
}

extension SlotArena {
  /// Starts loading the hash bucket of `key` into the CPU cache (stage 1 of a lookup).
  @inlinable @inline(__always)
  public func prefetchBucket(of key: UInt64) {
    cachelab_prefetch(buckets + bucket(of: key))
  }

  /// Prefetch stage 1 (the bucket) or 2 (the first node) of a lookup of `key`; other stages
  /// do nothing (loading the second node of a chain as well costs more than it saves).
  @inlinable @inline(__always)
  public func prefetch(_ key: UInt64, stage: Int) {
    if stage == 1 {
      prefetchBucket(of: key)
    } else if stage == 2 {
      prefetchNode(of: key)
    }
  }

  /// Starts loading the list neighbours of `key`'s node when it heads its bucket (stage 3,
  /// for a policy whose hit moves the node: the bucket and node should be cached by now).
  @inlinable @inline(__always)
  public func prefetchNeighbours(of key: UInt64) {
    let slot = buckets[bucket(of: key)]
    guard slot >= 0 else { return }
    let node = nodes + Int(slot)
    guard node.pointee.key == key else { return }
    if node.pointee.prev >= 0 { cachelab_prefetch(nodes + Int(node.pointee.prev)) }
    if node.pointee.next >= 0 { cachelab_prefetch(nodes + Int(node.pointee.next)) }
  }

  /// Starts loading what evicting `slot` next will touch: its predecessor in its list and
  /// its hash bucket (the node itself should be cached). -1 does nothing.
  @inlinable @inline(__always)
  public func prefetchEviction(of slot: Int32) {
    guard slot >= 0 else { return }
    let node = nodes + Int(slot)
    cachelab_prefetch(buckets + bucket(of: node.pointee.key))
    if node.pointee.prev >= 0 { cachelab_prefetch(nodes + Int(node.pointee.prev)) }
  }

  /// Starts loading the first node of `key`'s bucket (stage 2; the bucket should be cached).
  @inlinable @inline(__always)
  public func prefetchNode(of key: UInt64) {
    let slot = buckets[bucket(of: key)]
    if slot >= 0 { cachelab_prefetch(nodes + Int(slot)) }
  }
}
