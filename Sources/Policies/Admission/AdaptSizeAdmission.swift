import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// AdaptSize: admits a missed object of `size` bytes with probability e^(−size/c), where the
/// size parameter c is re-tuned periodically to the value a Markov model of the cache
/// predicts to give the most hits.
///
/// As libCacheSim's `adaptsize.cpp` (the libcachesim 0.3.5 package): every request updates
/// per-object request counts (its own and the object's size); every `reconf-interval`
/// requests, once the sizes seen exceed three times the capacity (otherwise 1000 requests
/// later), long-term counts decay by 0.3, the interval's merge in (new objects unscaled, known
/// ones × 0.7), objects below 0.1 are forgotten, and log2 c is searched on a grid (2, 6, 10, …
/// below log2 capacity) then refined by at most `max-iteration` golden-section steps
/// (``AdaptSizeModel``); c starts at 2^15. Admission draws come from libCacheSim's
/// generator (lehmer64 from 0xdeadbeef + `--seed`). One difference: the model sums objects in
/// the order they were first seen, where libCacheSim sums in its hash map's order; the sums
/// differ in the last bits (about 1e-10 relative), which has not changed a choice of c on any
/// shared trace. Origin: Berger, Sitaraman & Harchol-Balter, "AdaptSize: Orchestrating the
/// Hot Object Memory Cache in a Content Delivery Network", NSDI 2017.
/// Memory: about 50 B per object seen in the current or long-term statistics.
public final class AdaptSizeAdmission: AdmissionPolicy {
  public static let descriptor = PolicyDescriptor(
    name: "adaptsize",
    summary: "admits with probability e^(-size/c), c tuned by a cache model every reconf-interval requests (seeded)",
    origin: "Berger, Sitaraman & Harchol-Balter, NSDI 2017; libCacheSim admission/adaptsize",
    parameters: [
      ParameterSpec(
        "max-iteration", default: "15", .integer(1...1000), help: "golden-section steps per reconfiguration",
        aliases: ["max_iteration"]),
      ParameterSpec(
        "reconf-interval", default: "30000", .integer(1...Int64(Int32.max)),
        help: "requests between reconfigurations", aliases: ["reconf_interval"]),
    ],
    memoryPerObject: "~50 B per object in the statistics", isRandomized: true,
    libCacheSim: .none(reason: "admission policy: Scripts/peer_diff.py compares it as create_adaptsize_admissioner"))

  public static var observesRequests: Bool { true }

  let capacity: UInt64
  let reconfigurationInterval: UInt64
  var nextReconfiguration: UInt64
  /// Bytes of the distinct objects in the statistics (wrapping, as libCacheSim's uint64).
  var statisticsSize: UInt64 = 0
  /// Requests per object since the last reconfiguration, and their decayed long-term sum.
  var interval = ObjectStatistics()
  var longTerm = ObjectStatistics()
  var model: AdaptSizeModel
  var random: Lehmer64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = UInt64(capacity)
    reconfigurationInterval = UInt64(parameters.integer("reconf-interval"))
    nextReconfiguration = reconfigurationInterval
    model = AdaptSizeModel(maxIterations: Int(parameters.integer("max-iteration")))
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
  }

  /// The current size parameter c (bytes).
  public var sizeParameter: Double { model.sizeParameter }

  public func observe(_ request: Request) {
    reconfigureIfDue()
    let size = UInt64(bitPattern: request.size)
    let inInterval = interval.index(of: request.key)
    let inLongTerm = longTerm.index(of: request.key)
    if inInterval == nil && inLongTerm == nil {
      statisticsSize &+= size
    } else {
      if let index = inInterval, interval.sizes[index] != request.size {
        statisticsSize = statisticsSize &- UInt64(bitPattern: interval.sizes[index]) &+ size
      }
      if let index = inLongTerm, longTerm.sizes[index] != request.size {
        statisticsSize = statisticsSize &- UInt64(bitPattern: longTerm.sizes[index]) &+ size
      }
    }
    let index = inInterval ?? interval.append(request.key)
    interval.counts[index] += 1
    interval.sizes[index] = request.size
  }

  public func admits(_ request: Request) -> Bool {
    let probability = exp(Double(-request.size) / model.sizeParameter)
    let roll = Double(random.next() % 10_000_000) / 10_000_000.0
    return roll < probability
  }

  /// Counts down to the next reconfiguration; when due and the statistics cover more than
  /// three capacities, merges them and re-tunes c. O(objects in the statistics) then.
  func reconfigureIfDue() {
    nextReconfiguration &-= 1
    guard nextReconfiguration == 0 else { return }
    guard statisticsSize > capacity &* 3 else {
      nextReconfiguration &+= 1000
      return
    }
    nextReconfiguration = reconfigurationInterval
    for index in longTerm.counts.indices { longTerm.counts[index] *= 0.3 }
    for index in interval.keys.indices {
      let key = interval.keys[index]
      if let known = longTerm.index(of: key) {
        longTerm.counts[known] += 0.7 * interval.counts[index]
        longTerm.sizes[known] = interval.sizes[index]
      } else {
        let added = longTerm.append(key)
        longTerm.counts[added] = interval.counts[index]
        longTerm.sizes[added] = interval.sizes[index]
      }
    }
    interval.removeAll()
    longTerm.removeAll { count, size in
      guard count < 0.1 else { return false }
      statisticsSize &-= UInt64(bitPattern: size)
      return true
    }
    model.tune(counts: longTerm.counts, sizes: longTerm.sizes, capacity: capacity)
  }

  public var storageBytes: Int { interval.storageBytes + longTerm.storageBytes + longTerm.keys.count * 16 }
}

/// Per-object request counts and sizes in first-seen order, with a key index. O(1) expected
/// per lookup or append.
struct ObjectStatistics {
  var keys: [UInt64] = []
  var counts: [Double] = []
  var sizes: [Int64] = []
  var positions: [UInt64: Int] = [:]

  func index(of key: UInt64) -> Int? { positions[key] }

  /// Appends `key` with count 0 and size 0; returns its index.
  mutating func append(_ key: UInt64) -> Int {
    positions[key] = keys.count
    keys.append(key)
    counts.append(0)
    sizes.append(0)
    return keys.count - 1
  }

  /// Forgets every object, keeping the storage.
  mutating func removeAll() {
    keys.removeAll(keepingCapacity: true)
    counts.removeAll(keepingCapacity: true)
    sizes.removeAll(keepingCapacity: true)
    positions.removeAll(keepingCapacity: true)
  }

  /// Removes the objects for which `shouldRemove(count, size)` is true, keeping the others in
  /// order. O(objects).
  mutating func removeAll(where shouldRemove: (Double, Int64) -> Bool) {
    var kept = 0
    for index in keys.indices where !shouldRemove(counts[index], sizes[index]) {
      keys[kept] = keys[index]
      counts[kept] = counts[index]
      sizes[kept] = sizes[index]
      kept += 1
    }
    keys.removeLast(keys.count - kept)
    counts.removeLast(counts.count - kept)
    sizes.removeLast(sizes.count - kept)
    positions.removeAll(keepingCapacity: true)
    for index in keys.indices { positions[keys[index]] = index }
  }

  /// Arrays at their element counts plus the index at its capacity (about 17 B per slot).
  var storageBytes: Int { keys.count * 24 + positions.capacity * 17 }
}
