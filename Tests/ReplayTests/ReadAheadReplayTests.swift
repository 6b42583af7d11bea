import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// A replay whose caches outgrow a core's private cache part-way (``PrivateCacheFit``) changes
/// how it runs, not what it counts: from then on the loop prefetches in stages and the binary
/// trace is decoded on another thread, and every count still equals one plain simulation of
/// the whole trace in a single call (which, starting empty, stays on the loop's other copy).
@Suite struct ReadAheadReplayTests {
  static let requests = SyntheticTraces.requests(count: 400_000, objects: 120_000)
  static let capacity: Int64 = 60_000

  static func counts(_ counters: MissCounters) -> [Int64] {
    [counters.requests, counters.requestBytes, counters.misses, counters.missBytes, counters.evictions]
  }

  @Test(arguments: ["lru", "fifo", "sieve"])
  func countsDoNotDependOnWhenReadingAheadStarts(policy: String) throws {
    let spec = try PolicySpec(parsing: policy)
    let simulation = try spec.entry.makeSimulation(
      capacity: Self.capacity, parameters: spec.parameters, context: PolicyContext(seed: 0), timeToLive: nil,
      admission: nil)
    let rows = Self.requests
    let whole = RequestBatch(capacity: rows.count)
    whole.refill { buffer in
      for (index, row) in rows.enumerated() { buffer[index] = row }
      return rows.count
    }
    // The premise: by the end of the replay's first batch (64 Ki rows) the cache is past the
    // threshold, so the rest is read ahead.
    let first = RequestBatch(capacity: 1 << 16)
    first.refill { buffer in
      for index in 0..<buffer.count { buffer[index] = rows[index] }
      return buffer.count
    }
    let probe = try spec.entry.makeSimulation(
      capacity: Self.capacity, parameters: spec.parameters, context: PolicyContext(seed: 0), timeToLive: nil,
      admission: nil)
    probe.replay(first, range: 0..<first.count)
    try #require(probe.objectCount > PrivateCacheFit.objects)

    simulation.replay(whole, range: 0..<whole.count)
    let path = Paths.temporaryFile("read-ahead-\(policy).oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(rows))
    let result = try Replayer(
      RunConfiguration(
        tracePath: path, trace: TraceSpec(parsing: "oracle-general"), policies: [spec],
        capacities: CapacitySpec.parseList(String(Self.capacity), objectMode: false))
    ).run()
    #expect(Self.counts(result.caches[0].counters) == Self.counts(simulation.counters))
    #expect(simulation.counters.evictions > 0)
  }
}
