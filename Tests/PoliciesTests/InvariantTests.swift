import CacheCore
import Policies
import TestSupport
import Testing

/// Every registered policy keeps its invariants after every request, in byte and object
/// mode, at capacities from one object up to the whole working set.
@Suite struct InvariantTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names, [false, true])
  func invariantsHoldAfterEveryRequest(name: String, objectMode: Bool) throws {
    let requests = SyntheticTraces.requests(
      count: 1500, objects: 120, sizes: objectMode ? nil : 1...400, seed: objectMode ? 3 : 4)
    var sizes: [UInt64: Int64] = [:]
    for request in requests where sizes[request.key] == nil { sizes[request.key] = request.size }
    let workingSet = sizes.values.reduce(0, +)
    let smallest = sizes.values.min() ?? 1
    for capacity in Set([smallest, 2 * smallest, 7, workingSet / 10, workingSet / 2, workingSet]) where capacity > 0 {
      let driver = try PolicyDriver(PolicySpec(parsing: name), capacity: capacity)
      var misses: Int64 = 0
      for (index, request) in requests.enumerated() {
        if !driver.serve(request) { misses += 1 }
        do {
          try driver.simulation.checkInvariants()
        } catch {
          Issue.record("\(name) capacity \(capacity) request \(index): \(error)")
          return
        }
        #expect(driver.simulation.occupiedBytes <= capacity)
      }
      #expect(driver.simulation.counters.misses == misses)
      // Every cached object needs at least its key and size (16 B) in the accounted storage.
      #expect(driver.simulation.storageBytes >= 16 * driver.simulation.objectCount, "\(name) storage accounting")
      #expect(driver.simulation.storageBytes > 0)
      #expect(misses >= Int64(sizes.count), "every object misses at least once")
    }
  }

  /// The same with stores and removals mixed in (`put` and `delete` rows: a store of a cached
  /// object replaces it, a removal may empty the cache), at capacities down to one object.
  @Test(arguments: names)
  func invariantsHoldWithStoresAndRemovals(name: String) throws {
    var requests = SyntheticTraces.requests(count: 1200, objects: 60, sizes: 1...400, seed: 9)
    for index in requests.indices {
      if index % 5 == 2 { requests[index].operation = .put }
      if index % 7 == 3 { requests[index].operation = .delete }
    }
    let largest = requests.map(\.size).max() ?? 1
    for capacity in [largest, 2 * largest, 10 * largest] {
      let driver = try PolicyDriver(PolicySpec(parsing: name), capacity: capacity)
      for (index, request) in requests.enumerated() {
        driver.serve(request)
        do {
          try driver.simulation.checkInvariants()
        } catch {
          Issue.record("\(name) capacity \(capacity) request \(index) (\(request.operation)): \(error)")
          return
        }
        #expect(driver.simulation.occupiedBytes <= capacity)
      }
    }
  }

  /// The same when an object's size changes between requests, growing on a hit up to the
  /// whole cache: first the pattern that crashed `slru-v0` before 2026-11-26 (a hit that
  /// outgrew a segment made its promotion cool empty segments looking for room), then every
  /// 9th request of a stream asking for a size 5 to 40 times the object's usual one, at most
  /// the capacity. `arc-v0` keeps a grown T1 hit over capacity, as libCacheSim's ARCv0 does,
  /// so for it only the run itself is checked.
  @Test(arguments: names)
  func invariantsHoldWhenSizesChange(name: String) throws {
    let usual = SyntheticTraces.requests(count: 1200, objects: 60, sizes: 1...400, seed: 21)
    let checked = name != ARCv0.descriptor.name
    for capacity: Int64 in [400, 2000, 12_000] {
      var requests = [10, 10, capacity / 2, 10].enumerated().map { index, size in
        Request(time: Int64(index), key: index % 2 == 0 ? 1 : 2, size: size)
      }
      requests[3].key = 1
      for (index, request) in usual.enumerated() {
        var grown = request
        if index % 9 == 4 { grown.size = min(capacity, request.size * Int64(5 + index % 36)) }
        requests.append(grown)
      }
      let driver = try PolicyDriver(PolicySpec(parsing: name), capacity: capacity)
      for (index, request) in requests.enumerated() {
        driver.serve(request)
        guard checked else { continue }
        do {
          try driver.simulation.checkInvariants()
        } catch {
          Issue.record("\(name) capacity \(capacity) request \(index) (size \(request.size)): \(error)")
          return
        }
      }
      #expect(driver.simulation.objectCount > 0)
    }
  }
}
