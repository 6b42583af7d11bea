import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// Orderings that the literature reports on the LIRS paper's traces (object mode), checked
/// for every registered policy.
@Suite struct LiteratureOrderingTests {
  static let traces = [
    "2_pools", "backf", "cpp", "cs", "gli", "loop", "multi1", "multi2", "multi3", "ps", "scan", "sprite", "zigzag",
  ]

  static func run(_ trace: String, policies: [String], sizes: String) throws -> RunResult {
    try Replayer(
      RunConfiguration(
        tracePath: Paths.sharedTrace("lirs/\(trace).trace"), trace: TraceSpec(parsing: "txt"),
        policies: policies.map { try PolicySpec(parsing: $0) },
        capacities: CapacitySpec.parseList(sizes, objectMode: true), ignoreSize: true, seed: 42)
    ).run()
  }

  static func misses(_ result: RunResult, _ policy: String) -> [Int64] {
    result.caches.filter { $0.policy?.description == policy }.map(\.counters.misses)
  }

  /// Belady's MIN with bypass is optimal for unit-size objects: no policy misses less, at
  /// any size. (Plain Belady, as libCacheSim's, must cache every missed object, so a policy
  /// that may decline or drop a new object, such as NSCache's order, can beat it.)
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/loop.trace")), arguments: traces)
  func beladyIsALowerBoundForEveryPolicy(trace: String) throws {
    let specs = PolicyRegistry.all.map(\.descriptor.name) + ["belady:bypass=true"]
    let result = try Self.run(trace, policies: specs, sizes: "0.02,0.1,0.3")
    let optimal = result.caches.filter { $0.policy?.description == "belady:bypass=true" }.map(\.counters.misses)
    #expect(optimal.count == 3)
    for cache in result.caches {
      let index =
        result.caches.filter { $0.policy?.description == cache.policy?.description }
        .firstIndex { $0.capacityLimit == cache.capacityLimit } ?? 0
      #expect(
        cache.counters.misses >= optimal[index],
        "\(trace): \(cache.label) missed \(cache.counters.misses) < optimal \(optimal[index]) at \(cache.capacityLimit ?? 0)"
      )
    }
  }

  /// LIRS is loop-resistant (Jiang & Zhang 2002): on `loop`, a 1011-block cycle where LRU
  /// never hits below 1011 blocks, it keeps most of its LIR set. ARC, whose case IV drops
  /// T1's oldest without a ghost while T1 fills the cache, does not (as the CLOCK-Pro paper
  /// notes) and stays with LRU there.
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/loop.trace")))
  func lirsBeatsLRUOnALoop() throws {
    let result = try Self.run("loop", policies: ["lru", "lirs", "arc"], sizes: "250,500,1000")
    let lru = Self.misses(result, "lru")
    for (index, misses) in Self.misses(result, "lirs").enumerated() {
      #expect(Double(misses) < 0.8 * Double(lru[index]), "loop: LIRS \(misses) vs LRU \(lru[index])")
    }
    #expect(Self.misses(result, "arc") == lru)
  }

  /// On `2_pools` (a hot and a cold pool) both LIRS and ARC protect the hot pool from the cold
  /// one at small sizes, where LRU thrashes (Jiang & Zhang 2002; Megiddo & Modha 2003).
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/2_pools.trace")))
  func lirsAndARCBeatLRUOnTwoPools() throws {
    let result = try Self.run("2_pools", policies: ["lru", "lirs", "arc"], sizes: "100,250,500")
    let lru = Self.misses(result, "lru")
    for policy in ["lirs", "arc"] {
      for (index, misses) in Self.misses(result, policy).enumerated() {
        #expect(misses < lru[index], "2_pools: \(policy) \(misses) vs LRU \(lru[index]) at size \(index)")
      }
    }
  }

  /// On a loop just larger than the cache, MRU keeps most of the loop while LRU keeps nothing.
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/loop.trace")))
  func mruBeatsLRUOnALoop() throws {
    let result = try Self.run("loop", policies: ["lru", "mru"], sizes: "1000")
    #expect(result.caches[0].hitRatio == 0)
    #expect(result.caches[1].hitRatio > 0.9)
  }
}
