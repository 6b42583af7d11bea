import CacheCore
import Engine

/// One LRU stack pass serving an LRU cache at each of many sizes: every get's stack distance
/// is binned by how many of the sizes it misses at, and each cache's counts are sums over the
/// bins. Exact where ``ReplayMethod`` allows it (no puts or deletes, and in byte mode sizes
/// that never change and fit every cache), where it equals one simulation per size in every
/// count, evictions and structure bytes included. Cost per get: one ``LRUStack`` access and a
/// binary search over the sizes; memory O(objects + sizes).
final class StackCurveTarget: ReplayTarget, @unchecked Sendable {
  private var stack = LRUStack()
  /// The distinct capacities, ascending.
  let capacities: [Int64]
  /// Per cache (in the order given): its capacity's index in ``capacities``.
  let capacityIndex: [Int]
  /// `bins[b]`: counted gets that miss at exactly the `b` smallest capacities (the last bin:
  /// first requests, a miss everywhere); `binBytes[b]`: their bytes.
  private var bins: UnsafeMutablePointer<Int64>
  private var binBytes: UnsafeMutablePointer<Int64>
  private(set) var requests: Int64 = 0
  private(set) var requestBytes: Int64 = 0
  /// Objects each capacity held when the counters were last reset.
  private var residentsAtReset: [Int]
  /// What made the trace differ from what the pre-pass saw (the pass is then not exact).
  private(set) var traceChange: String?
  private var replayed: Int64 = 0
  let failure: EngineError? = nil

  /// A pass for caches of `capacities` (any order, repeats allowed).
  init(capacities given: [Int64]) {
    capacities = Array(Set(given)).sorted()
    capacityIndex = given.map { [capacities] size in capacities.firstIndex(of: size) ?? 0 }
    bins = .allocate(capacity: capacities.count + 1)
    binBytes = .allocate(capacity: capacities.count + 1)
    bins.initialize(repeating: 0, count: capacities.count + 1)
    binBytes.initialize(repeating: 0, count: capacities.count + 1)
    residentsAtReset = [Int](repeating: 0, count: capacities.count)
  }

  deinit {
    bins.deallocate()
    binBytes.deallocate()
  }

  var cacheCount: Int { capacityIndex.count }

  func replay(_ batch: RequestBatch, range: Range<Int>) {
    let tally = batch.withRequests { requests in
      capacities.withUnsafeBufferPointer { capacities in
        Self.replay(requests, range: range, stack: &stack, capacities: capacities, bins: bins, binBytes: binBytes)
      }
    }
    requests &+= tally.gets
    requestBytes &+= tally.bytes
    if let change = tally.change, traceChange == nil {
      traceChange = "request \(replayed + Int64(change.offset - range.lowerBound) + 1) \(change.what)"
    }
    replayed &+= Int64(range.count)
  }

  /// The loop over a range: one stack access and one binary search per get, with the stack's
  /// memory prefetched in stages 16, 8 and 4 requests ahead. Returns the gets and their bytes,
  /// and the first request the pre-pass did not foresee (the pass is then not exact).
  private static func replay(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, stack: inout LRUStack,
    capacities: UnsafeBufferPointer<Int64>, bins: UnsafeMutablePointer<Int64>, binBytes: UnsafeMutablePointer<Int64>
  ) -> (gets: Int64, bytes: Int64, change: (offset: Int, what: String)?) {
    let smallest = capacities.first ?? 0
    var gets: Int64 = 0
    var bytes: Int64 = 0
    var change: (offset: Int, what: String)?
    let end = range.upperBound
    for index in range {
      if index &+ 16 < end { stack.prefetch(requests[index &+ 16].key, stage: 1) }
      if index &+ 8 < end { stack.prefetch(requests[index &+ 8].key, stage: 2) }
      if index &+ 4 < end { stack.prefetch(requests[index &+ 4].key, stage: 3) }
      let request = requests[index]
      switch request.operation {
      case .get: break
      case .event, .origin: continue
      case .put, .delete:
        if change == nil { change = (index, "is a \(request.operation), which the pre-pass did not see") }
        continue
      }
      if request.size > smallest, change == nil {
        change = (index, "is larger than a cache the pre-pass found it fits")
      }
      gets &+= 1
      bytes &+= request.size
      var bin = capacities.count
      if let distance = stack.access(key: request.key, size: request.size) {
        if stack.lastStoredSize != request.size, change == nil {
          change = (index, "changed its object's size, which the pre-pass did not see")
        }
        bin = sizesBelow(distance, capacities)
      }
      bins[bin] &+= 1
      binBytes[bin] &+= request.size
    }
    return (gets, bytes, change)
  }

  /// How many of `capacities` (ascending) are below `distance`: the sizes it misses at.
  @inline(__always)
  static func sizesBelow(_ distance: Int64, _ capacities: UnsafeBufferPointer<Int64>) -> Int {
    var low = 0
    var high = capacities.count
    while low < high {
      let middle = (low + high) >> 1
      if capacities[middle] < distance { low = middle + 1 } else { high = middle }
    }
    return low
  }

  func resetCounters() {
    bins.update(repeating: 0, count: capacities.count + 1)
    binBytes.update(repeating: 0, count: capacities.count + 1)
    requests = 0
    requestBytes = 0
    residentsAtReset = stack.residents(capacities)
  }

  /// Misses and their bytes per distinct capacity: the gets in the bins above its index. O(sizes).
  private var missesPerCapacity: [(misses: Int64, bytes: Int64)] {
    var result = [(misses: Int64, bytes: Int64)](repeating: (0, 0), count: capacities.count)
    var misses = bins[capacities.count]
    var bytes = binBytes[capacities.count]
    for index in capacities.indices.reversed() {
      result[index] = (misses, bytes)
      misses &+= bins[index]
      bytes &+= binBytes[index]
    }
    return result
  }

  var missCounts: [(misses: Int64, bytes: Int64)] {
    let perCapacity = missesPerCapacity
    return capacityIndex.map { perCapacity[$0] }
  }

  func closeWindowLatencies() -> [Double?]? { nil }

  /// The stack holds every distinct object so far.
  var heldObjects: Int { stack.objectCount }

  /// Each cache's counters as its own simulation would report them, the objects it holds
  /// now and the most it held at once (as far as its structure's size can tell). Every miss
  /// inserts (nothing is larger than a cache), so evictions are the misses less the growth
  /// in objects held. O(objects held by the largest cache + sizes).
  func finalCounts() -> [(counters: MissCounters, objects: Int, peakObjects: Int)] {
    let perCapacity = missesPerCapacity
    let residents = stack.residents(capacities)
    let trackers = stack.trackers
    return capacityIndex.map { index in
      var counters = MissCounters()
      counters.requests = requests
      counters.requestBytes = requestBytes
      counters.misses = perCapacity[index].misses
      counters.missBytes = perCapacity[index].bytes
      counters.evictions = counters.misses - Int64(residents[index] - residentsAtReset[index])
      let peak = max(residents[index], PeakTracker.peak(capacity: capacities[index], trackers))
      return (counters, residents[index], peak)
    }
  }

  /// The stack's self-check (nil when it holds).
  func checkInvariants() -> String? { stack.checkInvariants() }
}
