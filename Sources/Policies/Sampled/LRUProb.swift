import CacheCore

/// LRU with probabilistic promotion: a hit moves the object to the head only once in
/// `1/p` hits on average, so popular objects cost fewer list moves; the tail is evicted.
///
/// As libCacheSim's `LRUProb.c`: the promotion threshold is ⌊1 / p⌋ with p read as a
/// single-precision float (p = 0.1 gives 9), and a hit promotes when libCacheSim's next
/// draw (lehmer64 from 0xdeadbeef + `--seed`, one draw per hit) modulo the threshold is 0; seed
/// 0 reproduces the libcachesim package (each cache in a fresh thread). Origin: libCacheSim
/// `LRUProb.c` (probabilistic LRU, as in memcached's bumping and Caffeine's sampled reads).
/// Memory: 36 B (32 B node + 4 B bucket) per object.
public struct LRUProb: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lru-prob",
    aliases: ["lruprob"],
    summary: "LRU whose hits move the object to the head only with probability about p (seeded)",
    origin: "libCacheSim LRUProb.c",
    parameters: [
      ParameterSpec("p", default: "0.5", .real(0.000001...1), help: "promotion probability", aliases: ["prob"])
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket)", isRandomized: true,
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(parameters: "p=0.5", constructor: "LRU_Prob_init", resetsGenerator: true)
    ]))

  /// The LRU whose list and index this policy shares; only hits differ.
  @usableFromInline var lru: LRU
  @usableFromInline var random: Lehmer64
  @usableFromInline let threshold: UInt64
  public var capacity: Int64 { lru.capacity }

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    let probability = parameters.isExplicit("p") ? Double(Float(parameters.real("p"))) : 0.5
    threshold = max(1, UInt64(1.0 / probability))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    lru = LRU(capacity: capacity, parameters: parameters, context: context)
  }

  @inlinable public var occupiedBytes: Int64 { lru.occupiedBytes }
  @inlinable public var objectCount: Int { lru.objectCount }
  public var storageBytes: Int { lru.storageBytes }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = lru.arena.find(request.key)
    guard slot >= 0 else { return false }
    if random.next() % threshold == 0 { lru.arena.moveToFront(slot, in: &lru.queue) }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) { lru.insert(request) }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) { lru.evict(collecting: &victims) }

  public mutating func remove(_ key: UInt64) -> Victim? { lru.remove(key) }

  public func contains(_ key: UInt64) -> Bool { lru.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { lru.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) { try lru.checkInvariants() }
}
