import CacheCore
import Engine
import Foundation
import Replay
import TestSupport
import Testing
import Traces

/// The simulated disk and the real file store give an engine the same results: every hit,
/// miss, revalidation and I/O count and byte on the same trace; only latency differs. And the
/// per-tier latency figures count each answer once.
@Suite(.serialized) struct BackendEquivalenceTests {
  static let httpTrace = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path
  static let presets = ["nuke", "sdwebimage", "urlcache-linux", "zzdiskcache", "pincache"]

  /// One run of `presets` on the HTTP demo trace with the disk `backend` (a fresh folder per engine).
  static func run(_ backend: (String) -> DiskBackendKind) throws -> RunResult {
    let engines = try presets.map { name in
      var configuration = try PresetSpec(parsing: name).configuration
      configuration.diskBackend = backend(name)
      return LabeledEngine(.preset(name), configuration: configuration)
    }
    let configuration = RunConfiguration(
      tracePath: httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [], capacities: [], engines: engines)
    return try Replayer(configuration).run()
  }

  /// Every counter of `stats` but the latencies.
  static func counts(_ stats: EngineStats) -> [Int64] {
    [
      stats.requests, stats.requestBytes, stats.memoryHits, stats.diskHits, stats.hitBytes, stats.expired,
      stats.revalidated304, stats.revalidated200, stats.staleServed, stats.servedWhileRevalidating,
      stats.servedOnError, stats.lostBodyServed, stats.originFetches, stats.originBytes, stats.bypassed,
      stats.originErrors, stats.memoryEvictions, stats.diskEvictions, stats.purges, stats.purged,
    ]
  }

  @Test func fileAndSimulatedDisksGiveTheSameCountsAndBytes() throws {
    let folder = Paths.temporaryDirectory("backend-equivalence").path
    let simulated = try Self.run { _ in .simulated }
    let file = try Self.run { .file(directory: folder + "/" + $0) }
    for (a, b) in zip(simulated.caches, file.caches) {
      #expect(a.label == b.label)
      #expect(Self.counts(a.stats) == Self.counts(b.stats), "\(a.label)")
      #expect(a.stats.disk == b.stats.disk, "\(a.label): \(a.stats.disk) against \(b.stats.disk)")
      #expect(a.stats.disk.reads > 100 && a.stats.disk.fsyncs == 2 * a.stats.disk.writes, "\(a.label)")
      #expect(a.diskObjects == b.diskObjects && a.memoryObjects == b.memoryObjects, "\(a.label)")
      // Only latency differs: the file store's reads are timed, the simulated ones modelled.
      let modelled = try #require(a.stats.tiers).diskHit
      let measured = try #require(b.stats.tiers).diskHit
      #expect(modelled.totalCount == measured.totalCount)
    }
  }

  @Test func eachAnswerIsCountedOnceByWhatGaveIt() throws {
    let run = try Self.run { _ in .simulated }
    for cache in run.caches {
      let stats = cache.stats
      let tiers = try #require(stats.tiers)
      #expect(Int64(tiers.memoryHit.totalCount) == stats.memoryHits, "\(cache.label)")
      #expect(Int64(tiers.diskHit.totalCount) == stats.diskHits, "\(cache.label)")
      #expect(Int64(tiers.diskWrite.totalCount) == stats.disk.writes, "\(cache.label)")
      #expect(Int64(tiers.origin.totalCount) == tiers.count(.origin), "\(cache.label)")
      #expect(tiers.count(.memory) == stats.memoryHits && tiers.count(.disk) == stats.diskHits, "\(cache.label)")
      #expect(TierLatencies.Answer.allCases.map(tiers.count).reduce(0, +) == stats.requests, "\(cache.label)")
      #expect(tiers.count(.origin) >= stats.originFetches - stats.revalidated200, "\(cache.label)")
      #expect(Int64(stats.latency.totalCount) == stats.requests, "\(cache.label)")
      let total = TierLatencies.Answer.allCases.map(tiers.total).reduce(0, +)
      #expect(total > 0 && tiers.total(.memory) == Int64(tiers.memoryHit.totalCount) * 20, "\(cache.label)")
    }
  }
}
