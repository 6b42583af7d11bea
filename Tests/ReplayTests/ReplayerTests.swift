import CacheCore
import Foundation
import Policies
import Replay
import Reports
import TestSupport
import Testing
import Traces

@Suite struct ReplayerTests {
  static let requests = SyntheticTraces.requests(count: 20_000, objects: 2_000, sizes: 100...10_000, seed: 5)
  static let tracePath = Paths.temporaryFile("replay.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))

  static func configuration(
    path: String = tracePath, format: String = "oracle-general", policies: String = "lru,fifo,clock,sieve",
    sizes: String = "0.05,0.2,1MiB", ignoreSize: Bool = false, warmup: WarmupSpec = .none, parallel: Bool = true,
    batch: Int = 1 << 16
  ) throws -> RunConfiguration {
    RunConfiguration(
      tracePath: path, trace: try TraceSpec(parsing: format), policies: try PolicySpec.parseList(policies),
      capacities: try CapacitySpec.parseList(sizes, objectMode: ignoreSize), ignoreSize: ignoreSize, warmup: warmup,
      parallel: parallel, verifyInvariants: true, batchSize: batch)
  }

  static func counts(_ result: RunResult) -> [[Int64]] {
    result.caches.map {
      [
        $0.capacityLimit ?? 0, $0.requests, $0.requestBytes, $0.counters.misses, $0.counters.missBytes,
        $0.counters.evictions,
      ]
    }
  }

  @Test func resultsDoNotDependOnBatchingOrThreads() throws {
    let reference = try Replayer(Self.configuration(parallel: false)).run()
    for (parallel, batch) in [(true, 1 << 16), (true, 7), (false, 1)] {
      let other = try Replayer(Self.configuration(parallel: parallel, batch: batch)).run()
      #expect(Self.counts(other) == Self.counts(reference), "parallel \(parallel) batch \(batch)")
    }
  }

  @Test func eachCacheEqualsItsOwnSingleRun() throws {
    let together = try Replayer(Self.configuration()).run()
    for cache in together.caches {
      let alone = try Replayer(
        Self.configuration(policies: cache.policy?.description ?? "", sizes: "\(cache.capacityLimit ?? 0)")
      ).run()
      #expect(alone.caches[0].counters == cache.counters)
    }
  }

  @Test func fractionSizesUseTheFirstSeenWorkingSet() throws {
    let result = try Replayer(Self.configuration(policies: "lru", sizes: "0.1,1.0")).run()
    var firstSizes: [UInt64: Int64] = [:]
    for request in Self.requests where firstSizes[request.key] == nil { firstSizes[request.key] = request.size }
    let workingSet = firstSizes.values.reduce(0, +)
    #expect(result.summary?.uniqueObjects == Int64(firstSizes.count))
    #expect(result.summary?.workingSetBytes == workingSet)
    #expect(result.caches[0].capacityLimit == workingSet / 10)
    // With the whole working set, only first requests miss.
    #expect(result.caches[1].counters.misses == Int64(firstSizes.count))
    #expect(result.caches[1].counters.evictions == 0)
  }

  @Test func objectModeCountsObjects() throws {
    let result = try Replayer(Self.configuration(policies: "lru", sizes: "1.0,10", ignoreSize: true)).run()
    #expect(result.caches[0].capacityLimit == 2000 || result.caches[0].capacityLimit == result.summary?.uniqueObjects)
    #expect(result.caches[0].requestBytes == 20_000)
    #expect(result.caches[1].counters.missBytes == result.caches[1].counters.misses)
  }

  @Test func warmupByFractionSkipsCountingButNotCaching() throws {
    let full = try Replayer(Self.configuration(policies: "lru", sizes: "1.0")).run()
    let warmed = try Replayer(Self.configuration(policies: "lru", sizes: "1.0", warmup: .fraction(0.5), batch: 999))
      .run()
    #expect(warmed.warmupRequests == 10_000)
    #expect(warmed.caches[0].requests == 10_000)
    // Objects first seen in the warm-up half now hit.
    let secondHalfNew = Set(Self.requests[10_000...].map(\.key)).subtracting(Self.requests[..<10_000].map(\.key)).count
    #expect(warmed.caches[0].counters.misses == Int64(secondHalfNew))
    #expect(full.caches[0].counters.misses == Int64(Set(Self.requests.map(\.key)).count))
  }

  @Test func warmupByTraceTime() throws {
    // Requests are 1 ms apart in the synthetic trace; oracleGeneral keeps whole seconds.
    let result = try Replayer(
      Self.configuration(policies: "lru", sizes: "1MiB", warmup: .traceTime(5_000_000), batch: 333)
    ).run()
    let start = Self.requests[0].time / 1_000_000
    let expected = Self.requests.filter { $0.time / 1_000_000 < start + 5 }.count
    #expect(result.warmupRequests == Int64(expected))
    #expect(result.caches[0].requests == Int64(20_000 - expected))
  }

  @Test func warmupCoveringTheWholeTraceCountsNothing() throws {
    let result = try Replayer(Self.configuration(policies: "lru", sizes: "1MiB", warmup: .traceTime(1_000_000_000_000)))
      .run()
    #expect(result.warmupRequests == 20_000)
    #expect(result.caches[0].requests == 0 && result.caches[0].counters == MissCounters())
  }

  @Test func optionsThatDoNotFitTheTraceAreConfigurationErrors() throws {
    let text = Paths.temporaryFile("t.txt", text: "1\n2\n3\n")
    #expect {
      _ = try Replayer(
        Self.configuration(path: text, format: "txt", policies: "lru", sizes: "2", warmup: .traceTime(1))
      ).run()
    } throws: { error in
      guard case .configuration(let inner) = error as? ReplayError else { return false }
      return inner.message.contains("no timestamps")
    }
    #expect {
      _ = try Replayer(Self.configuration(path: text, format: "txt", policies: "lru", sizes: "0.1", ignoreSize: true))
        .run()
    } throws: { error in
      guard case .configuration(let inner) = error as? ReplayError else { return false }
      return inner.message.contains("less than 1")
    }
  }

  @Test func aMalformedTraceFailsTheRunWithItsLocation() throws {
    let path = Paths.temporaryFile("bad.csv", text: "time,key,size\n1,2,3\n2,x,y\n")
    #expect {
      _ = try Replayer(Self.configuration(path: path, format: "csv", policies: "lru", sizes: "10")).run()
    } throws: { error in
      guard case .trace(let inner) = error as? ReplayError else { return false }
      return inner.description.hasPrefix("\(path):3: ")
    }
  }
}
