import CacheCore
import Foundation
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// The floor on sampled caches: a cache the floor raises is simulated at its own rate, in the
/// same pass as the others, and counts exactly what a run at that rate alone counts.
@Suite struct SampleFloorTests {
  static let path = Paths.temporaryFile(
    "floor.oracleGeneral.bin",
    bytes: SyntheticTraces.oracleGeneral(
      SyntheticTraces.requests(count: 60_000, objects: 20_000, sizes: 100...5_000, seed: 9)))

  static func run(
    rate: Double, floor: Int, sizes: String, objectMode: Bool = true, warmup: WarmupSpec = .none
  ) throws -> RunResult {
    var configuration = RunConfiguration(
      tracePath: path, trace: try TraceSpec(parsing: "oracle-general"),
      policies: try PolicySpec.parseList("lru,s3fifo"),
      capacities: try CapacitySpec.parseList(sizes, objectMode: objectMode), ignoreSize: objectMode,
      warmup: warmup)
    configuration.slice = TraceSlice(sampleRate: rate, minimumObjects: floor)
    return try Replayer(configuration).run()
  }

  static func counts(_ cache: CacheResult) -> [Int64] {
    [cache.capacityLimit ?? 0, cache.requests, cache.requestBytes, cache.counters.misses, cache.counters.missBytes]
  }

  @Test func aRaisedCacheCountsWhatARunAtItsRateCounts() throws {
    let floored = try Self.run(rate: 0.01, floor: 100, sizes: "1000,4000,50000")
    let raised = TraceSlice.gridRate(atLeast: 100.0 / 1000)
    let middle = TraceSlice.gridRate(atLeast: 100.0 / 4000)
    #expect(floored.caches.map(\.sampleRate) == [raised, middle, 0.01, raised, middle, 0.01])
    #expect(floored.caches.map(\.capacityLimit) == [100, 100, 500, 100, 100, 500])
    for (index, rate) in [raised, middle, 0.01].enumerated() {
      let size = ["1000", "4000", "50000"][index]
      let alone = try Self.run(rate: rate, floor: 0, sizes: size)
      #expect(floored.caches[index].sampleRate == rate)
      #expect(Self.counts(floored.caches[index]) == Self.counts(alone.caches[0]), "lru @ \(size)")
      #expect(Self.counts(floored.caches[3 + index]) == Self.counts(alone.caches[1]), "s3fifo @ \(size)")
    }
  }

  /// A fractional warm-up is that fraction of the pass: exactly a run's at the pass's rate for
  /// the raised cache, and the same stretch of the trace (so about half its own requests) for a
  /// cache that keeps a sparser subset.
  @Test func aFractionalWarmupIsTheSameStretchOfTheTrace() throws {
    let floored = try Self.run(rate: 0.01, floor: 100, sizes: "1000,50000", warmup: .fraction(0.5))
    let raised = try Self.run(rate: floored.caches[0].sampleRate, floor: 0, sizes: "1000", warmup: .fraction(0.5))
    #expect(Self.counts(floored.caches[0]) == Self.counts(raised.caches[0]))
    let sparse = try Self.run(rate: 0.01, floor: 0, sizes: "50000", warmup: .fraction(0.5))
    let (got, alone) = (Double(floored.caches[1].requests), Double(sparse.caches[0].requests))
    #expect(abs(got - alone) / alone < 0.1, "\(got) vs \(alone)")
    #expect(abs(got - 30_000) / 30_000 < 0.1, "about half of the trace's 60,000 requests: \(got)")
  }

  /// Without a floor every cache runs at the sample rate; with one, only caches below it move.
  @Test func theFloorOnlyRaisesSmallCaches() throws {
    let plain = try Self.run(rate: 0.05, floor: 0, sizes: "200,5000")
    #expect(plain.caches.allSatisfy { $0.sampleRate == 0.05 })
    #expect(plain.caches.map(\.capacityLimit) == [10, 250, 10, 250])
    let floored = try Self.run(rate: 0.05, floor: 20, sizes: "200,5000")
    let raised = TraceSlice.gridRate(atLeast: 0.1)
    #expect(floored.caches.map(\.sampleRate) == [raised, 0.05, raised, 0.05])
    #expect(Self.counts(floored.caches[1]) == Self.counts(plain.caches[1]))
  }

  /// In byte mode the floor counts objects of the mean object size (about 2,550 bytes here).
  @Test func byteSizesCountObjectsOfTheMeanSize() throws {
    let floored = try Self.run(rate: 0.01, floor: 50, sizes: "1MiB,100MiB", objectMode: false)
    let small = floored.caches[0]
    #expect(small.sampleRate > 0.1 && small.sampleRate < 0.14, "\(small.sampleRate)")
    #expect(floored.caches[1].sampleRate == 0.01)
    let alone = try Self.run(rate: small.sampleRate, floor: 0, sizes: "1MiB", objectMode: false)
    #expect(Self.counts(small) == Self.counts(alone.caches[0]))
  }
}
