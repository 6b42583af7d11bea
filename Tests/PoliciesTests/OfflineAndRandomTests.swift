import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

@Suite struct OfflineAndRandomTests {
  static func run(_ path: String, _ format: String, _ policies: String, sizes: String, seed: UInt64 = 0) throws
    -> RunResult
  {
    try Replayer(
      RunConfiguration(
        tracePath: path, trace: TraceSpec(parsing: format), policies: PolicySpec.parseList(policies),
        capacities: CapacitySpec.parseList(sizes, objectMode: true), ignoreSize: true, seed: seed,
        verifyInvariants: true)
    ).run()
  }

  /// Belady on a trace without next-access times (text) uses the pre-pass, and gives what the
  /// oracle trace's own next-access times give.
  @Test(.enabled(if: Paths.sharedTraceAvailable("libcachesim/cloudPhysicsIO.txt")))
  func beladyComputesNextAccessForAnyFormat() throws {
    let sizes = "128,512,1024"
    let text = try Self.run(Paths.sharedTrace("libcachesim/cloudPhysicsIO.txt"), "txt", "belady,lru", sizes: sizes)
    let oracle = try Self.run(
      Paths.sharedTrace("libcachesim/cloudPhysicsIO.oracleGeneral.bin"), "oracle-general", "belady,lru", sizes: sizes)
    #expect(text.caches.map(\.counters) == oracle.caches.map(\.counters))
    for index in 0..<3 {
      #expect(text.caches[index].counters.misses < text.caches[index + 3].counters.misses, "Belady beats LRU")
    }
  }

  @Test func beladyOnASmallTraceIsTheTextbookResult() throws {
    // Two objects of room; requests 1 2 3 1 2 3 1.
    let path = Paths.temporaryFile("abc.txt", text: "1\n2\n3\n1\n2\n3\n1\n")
    let result = try Self.run(path, "txt", "belady,belady:bypass=true,lru", sizes: "2")
    // Forced insertion: 3 evicts 2 (next at 5, farther than 1's 4); 1 hits; 2 evicts 1 (next
    // at 7, farther than 3's 6); 3 hits; 1 misses: 5 misses.
    #expect(result.caches[0].counters.misses == 5)
    // With bypass, 3 (next at 6, farther than both) is never cached: 1 and 2 hit, 1 hits.
    #expect(result.caches[1].counters.misses == 4)
    #expect(result.caches[2].counters.misses == 7)
  }

  static let randomized = PolicyRegistry.all.filter(\.descriptor.isRandomized).map(\.descriptor.name)

  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/sprite.trace")), arguments: randomized)
  func randomizedPoliciesAreReproducibleBySeed(policy: String) throws {
    let path = Paths.sharedTrace("lirs/sprite.trace")
    let first = try Self.run(path, "txt", policy, sizes: "100,500", seed: 1)
    let again = try Self.run(path, "txt", policy, sizes: "100,500", seed: 1)
    let other = try Self.run(path, "txt", policy, sizes: "100,500", seed: 2)
    #expect(first.caches.map(\.counters) == again.caches.map(\.counters))
    #expect(first.caches.map(\.counters) != other.caches.map(\.counters), "\(policy) ignores its seed")
  }
}
