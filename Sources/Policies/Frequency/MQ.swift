import CacheCore

/// Multi-Queue: m LRU queues; an object requested f times lives in queue min(⌊log2 f⌋, m − 1),
/// and eviction takes the LRU end of the lowest non-empty queue. Every hit and every insertion
/// advances a virtual clock and runs Adjust: in each queue above the first, an LRU-end object
/// not requested for `lifetime` ticks drops one queue. Evicted objects are remembered with
/// their frequency in a FIFO history (Qout, `qout-size-ratio` × the capacity); an object
/// inserted again while remembered resumes at that frequency + 1.
/// As libCacheSim's `MQ.c`. Origin: Zhou, Philbin & Li, "The Multi-Queue Replacement
/// Algorithm for Second Level Buffer Caches", USENIX ATC 2001.
/// Memory: 48-byte node (frequency, queue, expiry) + 4-byte bucket per object, 36 B per
/// remembered evicted object.
public struct MQ: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "mq",
    aliases: ["multi-queue"],
    summary: "multi-queue: LRU queues by log2 frequency, idle objects demoted, evicted frequencies remembered",
    origin: "Zhou, Philbin & Li, USENIX ATC 2001; libCacheSim MQ.c",
    parameters: [
      ParameterSpec("queues", default: "8", .integer(1...64), help: "number of LRU queues", aliases: ["n-queue"]),
      ParameterSpec(
        "lifetime", default: "10000", .integer(1...(1 << 40)),
        help: "requests an object may stay unrequested at a queue's LRU end before it drops a queue"),
      ParameterSpec(
        "qout", default: "4", .real(0...1000), help: "size of the history of evicted objects, × the capacity",
        aliases: ["qout-size-ratio"]),
    ],
    memoryPerObject: "52 B (48 B node with frequency, queue and expiry + 4 B bucket), 36 B per remembered object",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "queues=8", constructor: "MQ_init", peerParameters: "n-queue=8,lifetime=10000,Qout-size-ratio=4"),
      LibCacheSimCounterpart(
        parameters: "queues=4,lifetime=100,qout=1", constructor: "MQ_init",
        peerParameters: "n-queue=4,lifetime=100,Qout-size-ratio=1"),
    ]))

  @usableFromInline struct State {
    @usableFromInline var expiry: Int64
    @usableFromInline var frequency: Int32
    @usableFromInline var queue: Int32
    @inlinable init(expiry: Int64, frequency: Int32, queue: Int32) {
      self.expiry = expiry
      self.frequency = frequency
      self.queue = queue
    }
  }

  @usableFromInline var arena: SlotArena<State>
  @usableFromInline var queues: [SlotList]
  /// Qout: evicted objects with their frequency, oldest at the tail.
  @usableFromInline var history: SlotArena<Int32>
  @usableFromInline var remembered = SlotList()
  @usableFromInline let historyCapacity: Int64
  @usableFromInline let lifetime: Int64
  @usableFromInline var clock: Int64 = 0
  @usableFromInline var bytes: Int64 = 0
  /// The frequency a miss found in Qout, for the insertion that follows (key and value).
  @usableFromInline var resumedKey: UInt64 = 0
  @usableFromInline var resumedFrequency: Int32 = -1
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    lifetime = parameters.integer("lifetime")
    historyCapacity = Int64(Double(capacity) * parameters.real("qout"))
    queues = [SlotList](repeating: SlotList(), count: Int(parameters.integer("queues")))
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    history = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + history.memoryFootprint }

  /// min(⌊log2 frequency⌋, queues − 1).
  @inlinable
  func queue(for frequency: Int32) -> Int {
    var queue = 0
    var rest = frequency
    while rest > 1, queue < queues.count - 1 {
      rest >>= 1
      queue += 1
    }
    return queue
  }

  @inlinable
  mutating func link(_ slot: Int32, to queue: Int) {
    arena[slot].extra.queue = Int32(queue)
    arena.pushFront(slot, to: &queues[queue])
  }

  /// Adjust: one clock tick; each queue's idle LRU-end object drops one queue.
  @inlinable
  mutating func adjust() {
    clock += 1
    for level in 1..<queues.count {
      let tail = queues[level].tail
      guard tail >= 0, arena[tail].extra.expiry < clock else { continue }
      arena.unlink(tail, from: &queues[level])
      link(tail, to: level - 1)
      arena[tail].extra.expiry = clock + lifetime
    }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else {
      resumedFrequency = -1
      let ghost = history.find(request.key)
      if ghost >= 0 {
        resumedKey = request.key
        resumedFrequency = history[ghost].extra
        _ = history.evict(ghost, from: &remembered)
      }
      return false
    }
    arena.unlink(slot, from: &queues[Int(arena[slot].extra.queue)])
    if arena[slot].extra.frequency < .max { arena[slot].extra.frequency += 1 }
    link(slot, to: queue(for: arena[slot].extra.frequency))
    arena[slot].extra.expiry = clock + lifetime
    adjust()
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    var frequency: Int32 = 1
    if resumedFrequency >= 0, resumedKey == request.key {
      frequency = resumedFrequency < .max ? resumedFrequency + 1 : resumedFrequency
    }
    resumedFrequency = -1
    let slot = arena.insert(
      key: request.key, size: request.size, extra: State(expiry: clock + lifetime, frequency: frequency, queue: 0))
    bytes += request.size
    link(slot, to: queue(for: frequency))
    adjust()
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    var level = 0
    while queues[level].isEmpty { level += 1 }
    let slot = queues[level].tail
    let frequency = arena[slot].extra.frequency
    arena.unlink(slot, from: &queues[level])
    let victim = release(slot)
    remember(victim, frequency: frequency)
    victims.record(victim)
  }

  /// Qout's FIFO `get`: keeps an evicted object (dropping the oldest to fit) with its frequency.
  @inlinable
  mutating func remember(_ victim: Victim, frequency: Int32) {
    let known = history.find(victim.key)
    if known >= 0 {
      history[known].extra = frequency
      return
    }
    guard victim.size <= historyCapacity else { return }
    while remembered.bytes + victim.size > historyCapacity { _ = history.evict(remembered.tail, from: &remembered) }
    let ghost = history.insert(key: victim.key, size: victim.size, extra: frequency)
    history.pushFront(ghost, to: &remembered)
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim { arena.release(slot, from: &bytes) }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let ghost = history.find(key)
    if ghost >= 0 { _ = history.evict(ghost, from: &remembered) }
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    arena.unlink(slot, from: &queues[Int(arena[slot].extra.queue)])
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try history.checkIndex()
    var objects = 0
    for level in 0..<queues.count {
      try arena.checkList(queues[level], named: "queue \(level)") { node throws(InvariantViolation) in
        guard Int(node.extra.queue) == level else {
          throw InvariantViolation("an object of queue \(node.extra.queue) is in \(level)")
        }
      }
      objects += queues[level].count
    }
    guard objects == arena.count else { throw InvariantViolation("queues hold \(objects) of \(arena.count) objects") }
    try history.checkSoleList(remembered, named: "Qout")
    guard remembered.bytes <= max(historyCapacity, 0) else { throw InvariantViolation("Qout above its capacity") }
  }
}
