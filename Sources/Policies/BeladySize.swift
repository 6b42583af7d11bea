import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sampled size-aware Belady: evicts, among `samples` objects drawn at random, the one with
/// the largest size × distance to its next request (the offline reference for caches of
/// variable-size objects, where plain MIN is not optimal).
///
/// As libCacheSim's `BeladySize.c` (sampled, not exact): samples are drawn with replacement
/// and scored log(size) + log(next access − now); the first strictly largest wins; a hit on an
/// object never requested again removes it, and a miss on one evicts as needed but does not
/// insert it. Draws come from libCacheSim's generator (lehmer64 from 0xdeadbeef + `--seed`),
/// but CacheLab samples uniformly from its cached objects where libCacheSim picks a random
/// bucket of its hash table and a random object in that chain (so chains and empty buckets
/// skew its samples); results agree within 1 % rather than exactly. Needs next-access times,
/// like `belady`. Origin: Berger et al., "Practical Bounds on Optimal Caching with Variable
/// Object Sizes", SIGMETRICS 2018 (the size-aware offline question); libCacheSim
/// `BeladySize.c`.
/// Memory: 52 B per object (40 B node with next access and array index + 4 B bucket + 4 B
/// array entry + 4 B padding).
public struct BeladySize: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "belady-size",
    aliases: ["beladysize"],
    summary: "offline reference for variable sizes: evicts the sampled object with the largest size × reuse distance",
    origin: "Berger et al., SIGMETRICS 2018; libCacheSim BeladySize.c",
    parameters: [
      ParameterSpec(
        "samples", default: "128", .integer(1...4096), help: "objects sampled per eviction", aliases: ["n-sample"])
    ],
    memoryPerObject: "52 B (40 B node + 4 B bucket + 4 B array entry + padding)", isRandomized: true,
    needsNextAccess: true)

  /// An object's next request and its place in the dense array.
  @frozen
  public struct State: DenseIndexed {
    @usableFromInline var index: Int32
    @usableFromInline var nextAccess: Int64

    @inlinable init(nextAccess: Int64) {
      index = 0
      self.nextAccess = nextAccess
    }

    @inlinable public var denseIndex: Int32 {
      get { index }
      set { index = newValue }
    }
  }

  @usableFromInline var objects: SampledObjects<State>
  @usableFromInline var random: Lehmer64
  @usableFromInline let samples: Int
  /// Requests seen (the clock next-access times are compared with).
  @usableFromInline var now: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    samples = Int(parameters.integer("samples"))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    objects = SampledObjects(capacity: capacity)
  }

  @inlinable public var occupiedBytes: Int64 { objects.bytes }
  @inlinable public var objectCount: Int { objects.count }
  public var storageBytes: Int { objects.memoryFootprint }

  /// Whether the trace says the object is never requested again (an unknown next access,
  /// -1, is not: such an object is cached and scored as farthest).
  @inlinable
  static func isNeverAgain(_ nextAccess: Int64) -> Bool { nextAccess == Request.never }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    now += 1
    let slot = objects.arena.find(request.key)
    guard slot >= 0 else { return false }
    if Self.isNeverAgain(request.nextAccess) {
      _ = objects.release(slot)
    } else {
      objects.arena[slot].extra.nextAccess = request.nextAccess
    }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    objects.insert(request, extra: State(nextAccess: request.nextAccess))
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(into: &victims) }
    if Self.isNeverAgain(request.nextAccess) { return .rejected }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(into victims: inout Sink) {
    var best = -1.0
    var chosen: Int32 = -1
    var sampled: Int32 = -1
    for _ in 0..<samples {
      sampled = objects.slot(at: Int(random.next() % UInt64(objects.count)))
      let next = objects.arena[sampled].extra.nextAccess
      let distance = next < 0 || Self.isNeverAgain(next) ? Double(Int64.max) : Double(next - now)
      let score = log(Double(objects.arena[sampled].size)) + log(distance)
      if best < score {
        best = score
        chosen = sampled
      }
    }
    // No score above −1 (empty objects, next accesses not after now): the last sample goes,
    // where libCacheSim would sample again forever.
    victims.record(objects.release(chosen >= 0 ? chosen : sampled))
  }

  public mutating func remove(_ key: UInt64) -> Victim? { objects.remove(key) }

  public func contains(_ key: UInt64) -> Bool { objects.arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { objects.arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try objects.check()
  }
}
