import CacheCore

/// Least frequently used: evicts the object with the fewest requests since it was cached;
/// among equal counts, the one that reached its count first (LRU within a frequency).
///
/// O(1) per request: objects sit in per-frequency lists, and the non-empty frequencies form
/// a linked list in increasing order, so a hit moves an object to the next frequency's list
/// and eviction takes the oldest object of the lowest frequency. Counts start at 1 and are
/// forgotten on eviction. Origin: classic; semantics as libCacheSim's `LFU.c`.
/// Memory: one 32-byte node (its frequency bucket in the node) + a 4-byte bucket per object,
/// plus 48 bytes per distinct frequency in use.
public struct LFU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lfu",
    summary: "least frequently used; ties broken by least recently reaching that frequency",
    origin: "classic; libCacheSim LFU.c (frequency buckets)",
    memoryPerObject: "36 B (32 B node + 4 B bucket) + 48 B per frequency in use",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(constructor: "LFU_init", reference: LibCacheSimReference("lfu")),
      LibCacheSimCounterpart(
        constructor: "LFUCpp_init", note: "cpp/LFU.cpp: least frequent, ties by least recent touch (as CacheLab's lfu)",
        reference: LibCacheSimReference("lfu")),
    ]))

  /// Objects with one frequency, linked to the neighbouring frequencies in use.
  @usableFromInline
  struct Bucket {
    @usableFromInline var frequency: Int64
    @usableFromInline var objects = SlotList()
    @usableFromInline var lower: Int32 = -1
    @usableFromInline var higher: Int32 = -1

    @inlinable init(frequency: Int64) {
      self.frequency = frequency
    }
  }

  /// Per-object state: the index of the object's bucket.
  @usableFromInline var arena: SlotArena<Int32>
  @usableFromInline var buckets: [Bucket] = []
  @usableFromInline var freeBuckets: [Int32] = []
  /// The bucket with the lowest frequency, or -1.
  @usableFromInline var lowest: Int32 = -1
  @usableFromInline var bytes: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    buckets.reserveCapacity(initialSlotCapacity(for: capacity) + 2)
    freeBuckets.reserveCapacity(initialSlotCapacity(for: capacity) + 2)
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int {
    arena.memoryFootprint + buckets.count * MemoryLayout<Bucket>.stride + freeBuckets.count * 4
  }

  /// A new empty bucket for `frequency`, linked between `lower` and `higher` (either -1).
  @inlinable
  mutating func makeBucket(_ frequency: Int64, lower: Int32, higher: Int32) -> Int32 {
    var bucket = Bucket(frequency: frequency)
    bucket.lower = lower
    bucket.higher = higher
    let index: Int32
    if let reused = freeBuckets.popLast() {
      index = reused
      buckets[Int(index)] = bucket
    } else {
      index = Int32(buckets.count)
      buckets.append(bucket)
    }
    if lower >= 0 { buckets[Int(lower)].higher = index } else { lowest = index }
    if higher >= 0 { buckets[Int(higher)].lower = index }
    return index
  }

  /// Unlinks and frees `bucket` if it holds no objects.
  @inlinable
  mutating func dropIfEmpty(_ bucket: Int32) {
    guard buckets[Int(bucket)].objects.isEmpty else { return }
    let lower = buckets[Int(bucket)].lower
    let higher = buckets[Int(bucket)].higher
    if lower >= 0 { buckets[Int(lower)].higher = higher } else { lowest = higher }
    if higher >= 0 { buckets[Int(higher)].lower = lower }
    freeBuckets.append(bucket)
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    let from = arena[slot].extra
    let frequency = buckets[Int(from)].frequency + 1
    var to = buckets[Int(from)].higher
    if to < 0 || buckets[Int(to)].frequency != frequency {
      to = makeBucket(frequency, lower: from, higher: to)
    }
    arena.unlink(slot, from: &buckets[Int(from)].objects)
    arena.pushFront(slot, to: &buckets[Int(to)].objects)
    arena[slot].extra = to
    dropIfEmpty(from)
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    var bucket = lowest
    if bucket < 0 || buckets[Int(bucket)].frequency != 1 {
      bucket = makeBucket(1, lower: -1, higher: lowest)
    }
    let slot = arena.insert(key: request.key, size: request.size, extra: bucket)
    arena.pushFront(slot, to: &buckets[Int(bucket)].objects)
    bytes += request.size
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let bucket = lowest
    let victim = arena.evict(buckets[Int(bucket)].objects.tail, from: &buckets[Int(bucket)].objects)
    bytes -= victim.size
    dropIfEmpty(bucket)
    victims.record(victim)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    let bucket = arena[slot].extra
    let victim = arena.evict(slot, from: &buckets[Int(bucket)].objects)
    bytes -= victim.size
    dropIfEmpty(bucket)
    return victim
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    var objects = 0
    var total: Int64 = 0
    var previousFrequency: Int64 = 0
    var previous: Int32 = -1
    var bucket = lowest
    while bucket >= 0 {
      let current = buckets[Int(bucket)]
      guard current.frequency > previousFrequency, current.lower == previous, !current.objects.isEmpty else {
        throw InvariantViolation("frequency buckets out of order or empty at frequency \(current.frequency)")
      }
      let index = bucket
      try arena.checkList(current.objects, named: "frequency \(current.frequency)") { node throws(InvariantViolation) in
        guard node.extra == index else { throw InvariantViolation("node of bucket \(node.extra) in bucket \(index)") }
      }
      objects += current.objects.count
      total += current.objects.bytes
      previousFrequency = current.frequency
      previous = bucket
      bucket = current.higher
    }
    guard objects == arena.count, total == bytes else {
      throw InvariantViolation("buckets hold \(objects) objects / \(total) bytes; expected \(arena.count) / \(bytes)")
    }
  }
}
