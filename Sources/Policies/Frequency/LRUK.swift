import CacheCore

/// LRU-K: evicts the object whose K-th most recent request is oldest (the largest backward
/// K-distance). Objects requested fewer than K times have an infinite distance and leave first,
/// in FIFO order of insertion. History is kept for cached objects only (an evicted object
/// starts again); time is the request count, so ties cannot occur. K = 1 is LRU.
/// As libCacheSim's `cpp/LRU_K.cpp`. Origin: O'Neil, O'Neil & Weikum, "The LRU-K Page
/// Replacement Algorithm for Database Disk Buffering", SIGMOD 1993.
/// Memory: 32-byte node + 4-byte bucket + 8 × K bytes of history + 16 bytes of heap entry.
public struct LRUK: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lruk",
    aliases: ["lru-k"],
    summary: "evicts the oldest K-th most recent request; objects seen fewer than K times first (FIFO)",
    origin: "O'Neil, O'Neil & Weikum, SIGMOD 1993; libCacheSim cpp/LRU_K.cpp",
    parameters: [ParameterSpec("k", default: "2", .integer(1...64), help: "requests remembered per object")],
    memoryPerObject: "52 B + 8 B × K (32 B node + 4 B bucket + K request times + 16 B heap entry)",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "k=2", constructor: "LRU_K_init", peerParameters: "k=2"),
      LibCacheSimCounterpart(parameters: "k=3", constructor: "LRU_K_init", peerParameters: "k=3"),
    ]))

  /// Per object: where its oldest remembered request is in its ring, and how many are there.
  @usableFromInline struct History {
    @usableFromInline var oldest: UInt16
    @usableFromInline var count: UInt16
    @inlinable init(oldest: UInt16, count: UInt16) {
      self.oldest = oldest
      self.count = count
    }
  }

  @usableFromInline var arena: SlotArena<History>
  /// Objects requested fewer than K times, newest at the head.
  @usableFromInline var young = SlotList()
  /// The others, by the time of their K-th most recent request.
  @usableFromInline var ranked: IndexedHeap<Int64>
  /// K request times per slot (a ring each).
  @usableFromInline var times: [Int64] = []
  @usableFromInline var bytes: Int64 = 0
  /// The request count (libCacheSim's `n_req`).
  @usableFromInline var clock: Int64 = 0
  @usableFromInline let k: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    k = Int(parameters.integer("k"))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    ranked = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + ranked.memoryFootprint + times.count * 8 }

  /// The K-th most recent request time of a slot with K remembered.
  @inlinable
  func kthTime(_ slot: Int32) -> Int64 { times[Int(slot) * k + Int(arena[slot].extra.oldest)] }

  /// Remembers a request at `clock` for `slot`, forgetting the oldest beyond K.
  @inlinable
  mutating func remember(_ slot: Int32) {
    let base = Int(slot) * k
    var history = arena[slot].extra
    if Int(history.count) < k {
      times[base + (Int(history.oldest) + Int(history.count)) % k] = clock
      history.count += 1
    } else {
      times[base + Int(history.oldest)] = clock
      history.oldest = UInt16((Int(history.oldest) + 1) % k)
    }
    arena[slot].extra = history
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    clock += 1
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while bytes + request.size > capacity { evict(collecting: &victims) }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    let wasYoung = Int(arena[slot].extra.count) < k
    remember(slot)
    if !wasYoung {
      ranked.update(slot, key: kthTime(slot))
    } else if Int(arena[slot].extra.count) >= k {
      arena.unlink(slot, from: &young)
      ranked.insert(slot, key: kthTime(slot))
    }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: History(oldest: 0, count: 0))
    bytes += request.size
    let end = (Int(slot) + 1) * k
    if times.count < end { times.append(contentsOf: repeatElement(0, count: end - times.count)) }
    remember(slot)
    if k == 1 {
      ranked.insert(slot, key: clock)
    } else {
      arena.pushFront(slot, to: &young)
    }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let slot: Int32
    if !young.isEmpty {
      slot = young.tail
      arena.unlink(slot, from: &young)
    } else {
      slot = ranked.popMinimum()
    }
    victims.record(release(slot))
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim { arena.release(slot, from: &bytes) }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    if Int(arena[slot].extra.count) < k { arena.unlink(slot, from: &young) } else { ranked.remove(slot) }
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try ranked.checkHeap()
    var youngBytes: Int64 = 0
    try arena.checkList(young, named: "young") { node throws(InvariantViolation) in
      guard Int(node.extra.count) < k else { throw InvariantViolation("an object seen K times is in the FIFO") }
      youngBytes += node.size
    }
    guard young.count + ranked.count == arena.count else {
      throw InvariantViolation("FIFO \(young.count) + ranked \(ranked.count) != \(arena.count) objects")
    }
    guard youngBytes <= bytes else { throw InvariantViolation("FIFO holds more bytes than the cache") }
  }
}
