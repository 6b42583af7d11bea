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
/// insert it. Objects live in libCacheSim's own hash table (``LibCacheSimTable``, 2^hashpower
/// buckets at first) and each sample is its `hashtable_rand_obj` drawing from lehmer64
/// (0xdeadbeef + `--seed`), so seed 0 and the package's `hashpower` reproduce the libcachesim
/// package. Needs next-access times, like `belady`. Origin: Berger et al., "Practical Bounds on
/// Optimal Caching with Variable Object Sizes", SIGMETRICS 2018 (the size-aware offline
/// question); libCacheSim `BeladySize.c`.
/// Memory: 28 B per object (key, chain link, size, next access) + 4–8 B of buckets,
/// and the initial table's pages as its buckets are touched (up to 2^hashpower × 4 B).
public struct BeladySize: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "belady-size",
    aliases: ["beladysize"],
    summary: "offline reference for variable sizes: evicts the sampled object with the largest size × reuse distance",
    origin: "Berger et al., SIGMETRICS 2018; libCacheSim BeladySize.c",
    parameters: [
      ParameterSpec(
        "samples", default: "128", .integer(1...4096), help: "objects sampled per eviction", aliases: ["n-sample"]),
      ParameterSpec(
        "hashpower", default: "24", .integer(4...26),
        help: "libCacheSim's hash power: the table starts at 2^hashpower buckets (the package's default 24)"),
    ],
    memoryPerObject:
      "32–36 B (28 B key, link, size, next access + 4–8 B buckets), plus the initial table's touched pages",
    isRandomized: true, needsNextAccess: true,
    // Sampled through CacheLab's port of libCacheSim's hash table, whose size follows the hash power:
    // hashpower=20 is Scripts/peer_diff.py's default --hashpower.
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "samples=128,hashpower=20", constructor: "BeladySize_init", peerParameters: "n-sample=128",
        note:
          "replayed on an oracleGeneral copy; both sample through libCacheSim's hash table (harness --hashpower 20)",
        resetsGenerator: true)
    ]))

  /// Objects with their next request.
  @usableFromInline var table: LibCacheSimTable<Int64>
  @usableFromInline var random: Lehmer64
  @usableFromInline let samples: Int
  /// Requests seen (the clock next-access times are compared with).
  @usableFromInline var now: Int64 = 0
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    samples = Int(parameters.integer("samples"))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    table = LibCacheSimTable(
      power: Int(parameters.integer("hashpower")), capacity: initialSlotCapacity(for: capacity), samples: samples)
  }

  @inlinable public var occupiedBytes: Int64 { table.bytes }
  @inlinable public var objectCount: Int { table.count }
  public var storageBytes: Int { table.memoryFootprint }

  /// Whether the trace says the object is never requested again (an unknown next access,
  /// -1, is not: such an object is cached and scored as farthest).
  @inlinable
  static func isNeverAgain(_ nextAccess: Int64) -> Bool { nextAccess == Request.never }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    now += 1
    let slot = table.find(request.key)
    guard slot >= 0 else { return false }
    if Self.isNeverAgain(request.nextAccess) {
      _ = table.take(slot)
    } else {
      table[slot].payload = request.nextAccess
    }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    _ = table.insert(key: request.key, size: request.size, payload: request.nextAccess)
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    if Self.isNeverAgain(request.nextAccess) { return .rejected }
    insert(request)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    guard table.count > 0 else { return }
    var chosen: Int32 = -1
    var sampled: Int32 = -1
    var best = Candidate(size: 0, distance: 0)
    for slot in table.randomSlots(samples, &random) {
      sampled = slot
      let next = table[sampled].payload
      let candidate = Candidate(
        size: Double(table[sampled].size),
        distance: next < 0 || Self.isNeverAgain(next) ? Double(Int64.max) : Double(next - now))
      if candidate.isScored, chosen < 0 || best.scoresBelow(candidate) {
        best = candidate
        chosen = sampled
      }
    }
    // No score above −1 (empty objects, next accesses not after now): the last sample goes,
    // where libCacheSim would sample again forever.
    victims.record(table.take(chosen >= 0 ? chosen : sampled))
  }

  /// A sample's size and distance to its next request, scored as libcachesim does,
  /// log(size) + log(distance), without a logarithm unless two products nearly tie.
  @usableFromInline
  struct Candidate {
    @usableFromInline let size: Double
    @usableFromInline let distance: Double

    @inlinable init(size: Double, distance: Double) {
      self.size = size
      self.distance = distance
    }

    /// Whether the score exceeds the −1 an eviction starts from: both factors at least 1
    /// (whole numbers), else the score is −∞ or not a number.
    @inlinable var isScored: Bool { size >= 1 && distance >= 1 }

    /// Whether `other` scores strictly higher. Products 10⁻¹⁰ apart (relatively) order the
    /// scores as they order themselves: a rounded product and a sum of two logarithms err by
    /// far less. Closer ones compare the logarithms themselves. Both must be scored.
    @inlinable
    func scoresBelow(_ other: Candidate) -> Bool {
      let mine = size * distance
      let theirs = other.size * other.distance
      if theirs > mine * (1 + 1e-10) { return true }
      if theirs < mine * (1 - 1e-10) { return false }
      return log(size) + log(distance) < log(other.size) + log(other.distance)
    }
  }

  public mutating func remove(_ key: UInt64) -> Victim? { table.take(key: key) }

  public func contains(_ key: UInt64) -> Bool { table.find(key) >= 0 }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { table.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try table.check()
  }
}
