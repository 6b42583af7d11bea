import CacheCore
import Engine
import MallocCounter
import Policies
import TestSupport
import Testing
import Traces

/// Replay is allocation-free per request: once a cache has reached its peak size,
/// reading batches and replaying them performs no heap allocation at all. A plain policy run
/// is checked as the replayer runs it: an engine built as ``EngineConfiguration/policyRun``.
@Suite struct AllocationTests {
  static let requests = SyntheticTraces.requests(count: 60_000, objects: 4_000, sizes: nil, seed: 8)
  static let path = Paths.temporaryFile("alloc.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))

  @Test(.enabled(if: malloc_counter_available() != 0), arguments: PolicyRegistry.all.map(\.descriptor.name))
  func steadyStateReplayDoesNotAllocate(policy: String) throws {
    let spec = try PolicySpec(parsing: policy)
    let engine = try CacheEngine(.policyRun(TierConfiguration(policy: spec, capacity: 500)), rowsCarryAttributes: false)
    let batch = RequestBatch(capacity: 4096)
    // First pass: the cache fills and its storage grows to its peak.
    let warm = try TraceSpec(parsing: "oracle-general").open(Self.path)
    while try warm.read(into: batch) { try engine.replay(batch, range: 0..<batch.count) }
    // Second pass, counted: reading and replaying 60 000 requests.
    let reader = try TraceSpec(parsing: "oracle-general").open(Self.path)
    malloc_counter_start()
    var replayed = 0
    while try reader.read(into: batch) {
      try engine.replay(batch, range: 0..<batch.count)
      replayed += batch.count
    }
    let allocations = malloc_counter_stop()
    #expect(replayed == 60_000)
    #expect(engine.stats.requests == 120_000)
    #expect(allocations == 0, "\(policy): \(allocations) allocations while replaying \(replayed) requests")
  }

  /// The same with each admission policy in front of LRU (AdaptSize re-tunes twice in the
  /// counted pass, at its default interval of 30 000 requests).
  @Test(.enabled(if: malloc_counter_available() != 0), arguments: AdmissionRegistry.all.map(\.name))
  func steadyStateReplayWithAdmissionDoesNotAllocate(admission: String) throws {
    let lru = try PolicySpec(parsing: "lru", admission: try AdmissionSpec(parsing: admission))
    let engine = try CacheEngine(.policyRun(TierConfiguration(policy: lru, capacity: 500)), rowsCarryAttributes: false)
    let batch = RequestBatch(capacity: 4096)
    for pass in 0..<3 {
      let reader = try TraceSpec(parsing: "oracle-general").open(Self.path)
      if pass == 2 { malloc_counter_start() }
      while try reader.read(into: batch) { try engine.replay(batch, range: 0..<batch.count) }
      if pass == 2 {
        let allocations = malloc_counter_stop()
        #expect(allocations == 0, "lru+\(admission): \(allocations) allocations while replaying")
      }
    }
    #expect(engine.stats.misses > 0)
  }

  /// A memory-only engine serving through its policy's loop (every stable-slot policy),
  /// counting each outcome and latency as an engine does: no allocation either, once its
  /// outcome buffer has grown to a batch.
  @Test(
    .enabled(if: malloc_counter_available() != 0),
    arguments: PolicyRegistry.all.filter(\.slotsAreStable).map(\.descriptor.name))
  func steadyStateEngineThroughThePolicyLoopDoesNotAllocate(policy: String) throws {
    // In bytes, and in objects (the loop then runs over a reused copy of the rows).
    for tier in ["\(policy):500", "\(policy):500objects"] {
      let memory = try TierConfiguration(parsing: tier)
      let engine = try CacheEngine(EngineConfiguration(name: "memory", memory: memory), rowsCarryAttributes: false)
      #expect(engine.throughPolicyLoop)
      let batch = RequestBatch(capacity: 4096)
      for pass in 0..<3 {
        let reader = try TraceSpec(parsing: "oracle-general").open(Self.path)
        if pass == 2 { malloc_counter_start() }
        while try reader.read(into: batch) {
          try batch.withRequests { (rows) throws(EngineError) in try engine.replay(rows, range: 0..<rows.count) }
        }
        if pass == 2 {
          let allocations = malloc_counter_stop()
          #expect(allocations == 0, "\(tier) engine: \(allocations) allocations while replaying")
        }
      }
      #expect(engine.stats.misses > 0 && engine.stats.hits > 0)
    }
  }

  @Test(.enabled(if: malloc_counter_available() != 0))
  func theCounterCountsAllocations() {
    malloc_counter_start()
    let array = [Int](repeating: 1, count: Int(malloc_counter_available()) + 1000)
    let allocations = malloc_counter_stop()
    #expect(array.count > 1000)
    #expect(allocations >= 1)
  }
}
