import CacheCore
import Foundation
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// Results on real traces equal the peer simulator's (libCacheSim's own test
/// expectations) and published hit ratios.
@Suite struct ConformanceTests {
  static let oracle = "libcachesim/cloudPhysicsIO.oracleGeneral.bin"

  /// Registered policies that the reference table has rows for (driven by the registry:
  /// registering such a policy adds it here automatically).
  static var referencePolicies: [String] {
    guard let rows = try? ReferenceTable.rows() else { return Paths.isCI ? ["missing-reference"] : [] }
    let names = Set(rows.filter { $0.trace == "cloudPhysicsIO.oracleGeneral.bin" }.map(\.policy))
    return PolicyRegistry.all.map(\.descriptor.name).filter { names.contains($0) }
  }

  static func run(
    _ relativeTrace: String, format: String, policy: PolicySpec, capacities: [Int64], ignoreSize: Bool = false,
    warmup: WarmupSpec = .none
  ) throws -> RunResult {
    let configuration = RunConfiguration(
      tracePath: Paths.sharedTrace(relativeTrace), trace: try TraceSpec(parsing: format), policies: [policy],
      capacities: capacities.map { .absolute($0) }, ignoreSize: ignoreSize, warmup: warmup,
      verifyInvariants: true)
    return try Replayer(configuration).run()
  }

  static func check(_ result: RunResult, against rows: [ReferenceRow]) {
    #expect(result.caches.count == rows.count)
    for (cache, row) in zip(result.caches, rows) {
      #expect(cache.capacityLimit == row.capacity)
      #expect(cache.requests == row.requests, "\(row): requests")
      #expect(cache.requestBytes == row.requestBytes, "\(row): request bytes")
      #expect(cache.counters.misses == row.misses, "\(row): misses")
      #expect(cache.counters.missBytes == row.missBytes, "\(row): miss bytes")
    }
  }

  @Test(.enabled(if: ReferenceTable.available && Paths.sharedTraceAvailable(oracle)), arguments: referencePolicies)
  func oracleGeneralMatchesTheReferenceAtAllSizes(policy: String) throws {
    let rows = try ReferenceTable.rows(policy: policy, trace: "cloudPhysicsIO.oracleGeneral.bin")
    #expect(rows.count == 8)
    let entry = try PolicyRegistry.entry(named: policy)
    let spec = try PolicySpec(parsing: policy + (rows[0].params.isEmpty ? "" : ":" + rows[0].params))
    #expect(spec.entry.descriptor.name == entry.descriptor.name)
    let result = try Self.run(Self.oracle, format: "oracle-general", policy: spec, capacities: rows.map(\.capacity))
    Self.check(result, against: rows)
  }

  @Test(.enabled(if: ReferenceTable.available && Paths.sharedTraceAvailable("libcachesim/cloudPhysicsIO.txt")))
  func lruOnTheTextFormInObjectMode() throws {
    let rows = try ReferenceTable.rows(policy: "lru", trace: "cloudPhysicsIO.txt")
    #expect(rows.count == 8)
    let result = try Self.run(
      "libcachesim/cloudPhysicsIO.txt", format: "txt", policy: try PolicySpec(parsing: "lru"),
      capacities: rows.map(\.capacity), ignoreSize: true)
    Self.check(result, against: rows)
  }

  @Test(
    .enabled(if: ReferenceTable.available && Paths.sharedTraceAvailable("libcachesim/cloudPhysicsIO.csv")),
    arguments: [("libcachesim/cloudPhysicsIO.csv", "csv"), ("libcachesim/cloudPhysicsIO.vscsi", "vscsi")])
  func lruWithChangingSizesKeepsTheFirstSize(trace: String, format: String) throws {
    let rows = try ReferenceTable.rows(policy: "lru", trace: "cloudPhysicsIO.csv and .vscsi")
    #expect(rows.count == 8)
    let result = try Self.run(
      trace, format: format, policy: try PolicySpec(parsing: "lru"), capacities: rows.map(\.capacity))
    Self.check(result, against: rows)
  }

  @Test(.enabled(if: ReferenceTable.available && Paths.sharedTraceAvailable("libcachesim/cloudPhysicsIO.csv")))
  func csvWithExplicitColumnsEqualsHeaderDetection() throws {
    let rows = try ReferenceTable.rows(policy: "lru", trace: "cloudPhysicsIO.csv and .vscsi")
    let result = try Self.run(
      "libcachesim/cloudPhysicsIO.csv", format: "csv:time-col=2,key-col=5,size-col=4,header=true,delimiter=comma",
      policy: try PolicySpec(parsing: "lru"), capacities: rows.map(\.capacity))
    Self.check(result, against: rows)
  }

  @Test(.enabled(if: ReferenceTable.available && Paths.sharedTraceAvailable("libcachesim/cloudPhysicsIO.vscsi")))
  func lruWithTwentyPercentWarmup() throws {
    let rows = try ReferenceTable.rows(policy: "lru", trace: "cloudPhysicsIO.vscsi (warmup-20pct)")
    #expect(rows.count == 8)
    let result = try Self.run(
      "libcachesim/cloudPhysicsIO.vscsi", format: "vscsi", policy: try PolicySpec(parsing: "lru"),
      capacities: rows.map(\.capacity), warmup: .fraction(0.2))
    #expect(result.warmupRequests == 22_774)
    Self.check(result, against: rows)
  }

  /// Published LRU hit ratios from the LIRS paper's traces (two decimals, in percent).
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/gli.trace")))
  func lruOnGliReproducesThePublishedHitRatios() throws {
    let published = [0.91, 0.95, 1.15, 11.21, 21.25, 36.56, 45.04, 57.41]
    let result = try Self.run(
      "lirs/gli.trace", format: "txt", policy: try PolicySpec(parsing: "lru"),
      capacities: Array(stride(from: 250, through: 2000, by: 250)), ignoreSize: true)
    #expect(result.replayedRequests == 6015)
    for (cache, expected) in zip(result.caches, published) {
      #expect(
        abs(cache.hitRatio * 100 - expected) < 0.005,
        "gli @\(cache.capacityLimit ?? 0): \(cache.hitRatio * 100) vs \(expected)")
    }
  }

  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/loop.trace")))
  func lruOnLoopReproducesThePublishedHitRatios() throws {
    let result = try Self.run(
      "lirs/loop.trace", format: "txt", policy: try PolicySpec(parsing: "lru"),
      capacities: [100, 500, 1000, 1250], ignoreSize: true)
    let percents = result.caches.map { ($0.hitRatio * 10000).rounded() / 100 }
    #expect(percents == [0, 0, 0, 99.8])
  }

  @Test(.enabled(if: Paths.sharedTraceAvailable("scarab/scarab-recs.trace")))
  func lruOnScarabReproducesThePublishedHitRatio() throws {
    let result = try Self.run(
      "scarab/scarab-recs.trace", format: "int64-be", policy: try PolicySpec(parsing: "lru"),
      capacities: [100_000, 258_368], ignoreSize: true)
    #expect(result.replayedRequests == 1_245_184)
    #expect(abs(result.caches[0].hitRatio * 100 - 75.91) < 0.005, "\(result.caches[0].hitRatio)")
    // An LRU holding every object is an unbounded cache: 79.25 % published.
    #expect(abs(result.caches[1].hitRatio * 100 - 79.25) < 0.005, "\(result.caches[1].hitRatio)")
  }
}
