import CacheCore

/// FIFO-Merge: a FIFO whose evictions examine a window of objects and keep the most valuable.
///
/// As libCacheSim's `FIFO_Merge.c`: when room is needed, a cursor walks `n-exam` objects from
/// where it stopped toward newer ones (wrapping to the oldest), scores each — `retain=freq`:
/// 10⁶ × (hits + a random fraction below 0.1) / size, drawing libCacheSim's generator once per
/// object (lehmer64 from 0xdeadbeef + `--seed`); `retain=recency`: 10¹² / (requests since its
/// last access) / size — sorts them stably by score, evicts the lowest now and the next
/// `n-exam − n-keep − 2` lowest on the following evictions, then scans again. With at most
/// `n-exam` objects cached it evicts the oldest. `n-keep` defaults to 50 whatever `n-exam` is,
/// as in libCacheSim. Origin: Yang et al., "FIFO can be Better than LRU" (HotOS 2023) line of
/// work; libCacheSim `FIFO_Merge.c`.
/// Memory: 44 B per object (40 B node with hit count and last access + 4 B bucket), plus the
/// scan window (12 B per examined object).
public struct FIFOMerge: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "fifo-merge",
    aliases: ["fifomerge", "fifo_merge"],
    summary: "FIFO whose evictions score a window of n-exam objects and keep the n-keep best (seeded)",
    origin: "libCacheSim FIFO_Merge.c",
    parameters: [
      ParameterSpec("n-exam", default: "100", .integer(2...100_000), help: "objects examined per scan"),
      ParameterSpec("n-keep", default: "50", .integer(1...100_000), help: "objects of a scan kept"),
      ParameterSpec(
        "retain", default: "freq", .choice(["freq", "recency"]), help: "score: hits per byte or recency per byte",
        aliases: ["retain-policy"]),
    ],
    memoryPerObject: "44 B (40 B node with hit count and last access + 4 B bucket)", isRandomized: true,
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "n-exam=100,n-keep=50,retain=freq", constructor: "FIFO_Merge_init", resetsGenerator: true)
    ]))

  /// An object's hit count and the request number of its last access.
  @frozen
  public struct Entry {
    @usableFromInline var hits: Int64
    @usableFromInline var lastAccess: Int64

    @inlinable
    init(lastAccess: Int64) {
      hits = 0
      self.lastAccess = lastAccess
    }
  }

  @usableFromInline var arena: SlotArena<Entry>
  @usableFromInline var queue = SlotList()
  @usableFromInline var random: Lehmer64
  @usableFromInline let examined: Int
  @usableFromInline let kept: Int
  @usableFromInline let byRecency: Bool
  /// The last scan's objects, lowest score first, and how many of them have been consumed.
  @usableFromInline var window: [Int32]
  @usableFromInline var scores: [Double]
  @usableFromInline var position = Int(Int32.max)
  /// The next object to examine (-1: start from the oldest).
  @usableFromInline var cursor: Int32 = -1
  @usableFromInline var requests: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    examined = Int(parameters.integer("n-exam"))
    kept = Int(parameters.integer("n-keep"))
    byRecency = parameters.string("retain") == "recency"
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    window = [Int32](repeating: -1, count: examined)
    scores = [Double](repeating: 0, count: examined)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { queue.bytes }
  @inlinable public var objectCount: Int { queue.count }
  public var storageBytes: Int { arena.memoryFootprint + examined * 12 }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    requests += 1
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    arena[slot].extra.hits += 1
    arena[slot].extra.lastAccess = requests
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Entry(lastAccess: requests))
    arena.pushFront(slot, to: &queue)
  }

  /// Evicts one object: the next low scorer of the current scan, or the oldest when few are
  /// cached, or the lowest of a new scan.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    if position < examined {
      let slot = window[position]
      position += 1
      if position < examined - kept {
        victims.record(release(slot))
        return
      }
    }
    if queue.count <= examined {
      cursor = -1
      victims.record(release(queue.tail))
      return
    }
    var slot = cursor
    for index in 0..<examined {
      if slot < 0 { slot = queue.tail }
      window[index] = slot
      scores[index] = score(slot)
      slot = arena[slot].prev
    }
    cursor = slot
    sortWindow()
    position = 1
    victims.record(release(window[0]))
  }

  @inlinable
  mutating func score(_ slot: Int32) -> Double {
    let size = Double(arena[slot].size)
    if byRecency { return 1.0e12 / Double(requests - arena[slot].extra.lastAccess) / size }
    let fraction = Double(random.next() % 1000) / 10000.0
    return 1.0e6 * (Double(arena[slot].extra.hits) + fraction) / size
  }

  /// Stable insertion sort of the window by score (libCacheSim's qsort is glibc's merge sort,
  /// stable too). O(n-exam²) per scan, no allocation.
  @inlinable
  mutating func sortWindow() {
    for index in 1..<examined {
      let slot = window[index]
      let score = scores[index]
      var hole = index
      while hole > 0, scores[hole - 1] > score {
        window[hole] = window[hole - 1]
        scores[hole] = scores[hole - 1]
        hole -= 1
      }
      window[hole] = slot
      scores[hole] = score
    }
  }

  /// Unlinks and frees `slot`, moving the cursor off it.
  @inlinable
  mutating func release(_ slot: Int32) -> Victim {
    if cursor == slot { cursor = arena[slot].prev }
    return arena.evict(slot, from: &queue)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    position = Int(Int32.max)
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkSoleList(queue, named: "fifo-merge queue")
    if cursor >= 0, !arena.isLive(cursor) { throw InvariantViolation("cursor on a free slot") }
  }
}
