import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// LeCaR: two experts, LRU and LFU, chosen at random by learned weights; an eviction that
/// is later regretted (the object is requested again while remembered in its expert's
/// ghost list) lowers that expert's weight.
///
/// As libCacheSim's `LeCaR.c`: when the LRU and LFU candidates differ, a draw,
/// `(next % 100) / 100 < w_lru`, picks LRU, else LFU (oldest at the lowest frequency). Each expert has a ghost list of `capacity / 2` bytes; a ghost hit after t
/// requests multiplies the regretted weight by exp(−0.45 × 0.005^(t / capacity)) and
/// renormalises. Objects both experts would evict leave no ghost in a list. Randomised: with
/// `generator=mmix` (the default) seed 0 reproduces the unit tests in `../shared/reference`;
/// with `generator=lehmer64` it reproduces the libcachesim package, whose `LeCaR` and
/// `LeCaRv0` (four sub-caches) both follow these rules. Origin: Vietri et al., "Driving Cache
/// Replacement with ML-based LeCaR", HotStorage 2018; libCacheSim `LeCaR.c`, `LeCaRv0.c`.
/// Memory: 56-byte node + 4-byte bucket + 24 bytes of heap entry per object; ghosts alike.
public struct LeCaR: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lecar",
    summary: "LRU and LFU experts chosen by regret-learned weights (randomised)",
    origin: "Vietri et al., HotStorage 2018; libCacheSim LeCaR.c",
    parameters: [
      ParameterSpec("learning-rate", default: "0.45", .real(0...10), help: "regret learning rate"),
      ParameterSpec("lru-weight", default: "0.5", .real(0...1), help: "initial weight of the LRU expert"),
      ParameterSpec(
        "generator", default: "mmix", .choice(LibCacheSimGenerator.names),
        help:
          "libCacheSim's draws: mmix as the unit tests in ../shared/reference, lehmer64 as the libcachesim package (its LeCaRv0)"
      ),
    ],
    memoryPerObject: "84 B (56 B node + 4 B bucket + 24 B heap entry), ghosts alike",
    isRandomized: true,
    libCacheSim: .counterparts([
      // With the package's generator, lecar equals both of the package's LeCaR implementations.
      LibCacheSimCounterpart(
        parameters: "generator=lehmer64", constructor: "LeCaR_init", peerParameters: "update-weight=1,lru-weight=0.5",
        resetsGenerator: true),
      LibCacheSimCounterpart(
        parameters: "generator=lehmer64", constructor: "LeCaRv0_init",
        note: "LeCaRv0.c (four sub-caches), the same rules", resetsGenerator: true),
      LibCacheSimCounterpart(
        parameters: "generator=mmix", constructor: "LeCaR_init", peerParameters: "update-weight=1,lru-weight=0.5",
        randomised: true, reference: LibCacheSimReference("lecar")),
    ]))

  @usableFromInline static let resident: UInt8 = 0
  @usableFromInline static let ghostOfLRU: UInt8 = 1
  @usableFromInline static let ghostOfLFU: UInt8 = 2
  @usableFromInline static let ghostOfBoth: UInt8 = 3

  /// Per-object state: resident or which expert evicted it, and when.
  @usableFromInline
  struct State {
    @usableFromInline var kind: UInt8
    @usableFromInline var frequency: Int64
    @usableFromInline var evictedAt: Int64

    @inlinable init(kind: UInt8, frequency: Int64 = 1, evictedAt: Int64 = 0) {
      self.kind = kind
      self.frequency = frequency
      self.evictedAt = evictedAt
    }
  }

  @usableFromInline var arena: SlotArena<State>
  /// Resident objects, most recently used at the head.
  @usableFromInline var recency = SlotList()
  /// Resident objects by (frequency, time of reaching it).
  @usableFromInline var frequency: IndexedHeap<IntegerPriority>
  @usableFromInline var lruGhosts = SlotList()
  @usableFromInline var lfuGhosts = SlotList()
  @usableFromInline var weightLRU: Double
  @usableFromInline var weightLFU: Double
  @usableFromInline let learningRate: Double
  @usableFromInline let discountRate: Double
  @usableFromInline let ghostCapacity: Int64
  @usableFromInline var clock: Int64 = 0
  @usableFromInline var sequence: Int64 = 0
  @usableFromInline var random: LibCacheSimGenerator
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    weightLRU = parameters.real("lru-weight")
    weightLFU = 1 - weightLRU
    learningRate = parameters.real("learning-rate")
    discountRate = pow(0.005, 1.0 / Double(capacity))
    ghostCapacity = capacity / 2
    random = LibCacheSimGenerator(named: parameters.string("generator"), seed: context.seed)
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    frequency = IndexedHeap(capacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { recency.bytes }
  @inlinable public var objectCount: Int { recency.count }
  public var storageBytes: Int { arena.memoryFootprint + frequency.memoryFootprint }

  /// Penalises the expert whose eviction was regretted `age` requests later.
  @inlinable
  mutating func regret(byLRU: Bool, age: Int64) {
    let discount = pow(discountRate, Double(age))
    if byLRU {
      weightLRU = weightLRU * exp(-learningRate * discount) + 1e-10
      let total = weightLRU + weightLFU + 2e-10
      weightLRU /= total
      weightLFU = (weightLFU + 1e-10) / total
    } else {
      weightLFU = weightLFU * exp(-learningRate * discount) + 1e-10
      let total = weightLFU + weightLRU + 2e-10
      weightLFU /= total
      weightLRU = (weightLRU + 1e-10) / total
    }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    clock += 1
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    let state = arena[slot].extra
    switch state.kind {
    case Self.resident:
      arena.moveToFront(slot, in: &recency)
      arena[slot].extra.frequency += 1
      sequence += 1
      frequency.update(slot, key: IntegerPriority(state.frequency + 1, sequence: sequence))
      return true
    case Self.ghostOfLRU:
      regret(byLRU: true, age: clock - state.evictedAt)
      _ = arena.evict(slot, from: &lruGhosts)
    case Self.ghostOfLFU:
      regret(byLRU: false, age: clock - state.evictedAt)
      _ = arena.evict(slot, from: &lfuGhosts)
    default:
      arena.remove(slot)
    }
    return false
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: State(kind: Self.resident))
    arena.pushFront(slot, to: &recency)
    sequence += 1
    frequency.insert(slot, key: IntegerPriority(1, sequence: sequence))
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let lruCandidate = recency.tail
    let lfuCandidate = frequency.minimum
    let victim: Int32
    let kind: UInt8
    if lruCandidate == lfuCandidate {
      (victim, kind) = (lruCandidate, Self.ghostOfBoth)
    } else if Double(random.next() % 100) / 100.0 < weightLRU {
      (victim, kind) = (lruCandidate, Self.ghostOfLRU)
    } else {
      (victim, kind) = (lfuCandidate, Self.ghostOfLFU)
    }
    let size = arena[victim].size
    victims.record(Victim(key: arena[victim].key, size: size))
    arena.unlink(victim, from: &recency)
    frequency.remove(victim)
    arena[victim].extra = State(kind: kind, evictedAt: clock)
    if kind == Self.ghostOfLRU {
      arena.pushFront(victim, to: &lruGhosts)
      while lruGhosts.bytes > ghostCapacity { _ = arena.evict(lruGhosts.tail, from: &lruGhosts) }
    } else if kind == Self.ghostOfLFU {
      arena.pushFront(victim, to: &lfuGhosts)
      while lfuGhosts.bytes > ghostCapacity { _ = arena.evict(lfuGhosts.tail, from: &lfuGhosts) }
    }
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    switch arena[slot].extra.kind {
    case Self.resident:
      frequency.remove(slot)
      return arena.evict(slot, from: &recency)
    case Self.ghostOfLRU: _ = arena.evict(slot, from: &lruGhosts)
    case Self.ghostOfLFU: _ = arena.evict(slot, from: &lfuGhosts)
    default: arena.remove(slot)
    }
    return nil
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra.kind == Self.resident
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try frequency.checkHeap()
    try arena.checkList(recency, named: "recency") { node throws(InvariantViolation) in
      guard node.extra.kind == Self.resident else { throw InvariantViolation("a ghost in the recency list") }
    }
    try arena.checkList(lruGhosts, named: "LRU ghosts")
    try arena.checkList(lfuGhosts, named: "LFU ghosts")
    guard frequency.count == recency.count else {
      throw InvariantViolation("\(frequency.count) frequency entries for \(recency.count) objects")
    }
    guard lruGhosts.bytes <= ghostCapacity, lfuGhosts.bytes <= ghostCapacity else {
      throw InvariantViolation("ghost lists over \(ghostCapacity) bytes")
    }
    guard weightLRU >= 0, weightLFU >= 0, abs(weightLRU + weightLFU - 1) < 1e-6 else {
      throw InvariantViolation("weights \(weightLRU) + \(weightLFU) do not sum to 1")
    }
  }
}
