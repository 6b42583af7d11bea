import CacheCore
import Foundation
import Stats
import TestSupport
import Testing
import Traces
import Workloads

@Suite struct RandomTests {
  @Test func sameSeedSameSequence() {
    let a = GSLRandom(seed: 5)
    let b = GSLRandom(seed: 5)
    let c = GSLRandom(seed: 6)
    let first = (0..<100).map { _ in a.uniform() }
    #expect(first == (0..<100).map { _ in b.uniform() })
    #expect(first != (0..<100).map { _ in c.uniform() })
    #expect(first.allSatisfy { $0 >= 0 && $0 < 1 })
  }

  @Test func zipfFrequenciesFollowTheWeights() {
    let n = 100
    let sampler = DiscreteSampler(zipfObjects: n, alpha: 1.0)
    let random = GSLRandom(seed: 1)
    var counts = [Int](repeating: 0, count: n)
    let draws = 400_000
    for _ in 0..<draws { counts[sampler.sample(random)] += 1 }
    let harmonic = (1...n).reduce(0.0) { $0 + 1.0 / Double($1) }
    for rank in [0, 1, 9, 99] {
      let expected = 1.0 / Double(rank + 1) / harmonic
      let observed = Double(counts[rank]) / Double(draws)
      // 5 standard errors of a binomial proportion.
      let tolerance = 5 * (expected * (1 - expected) / Double(draws)).squareRoot()
      #expect(abs(observed - expected) < tolerance, "rank \(rank): \(observed) vs \(expected)")
    }
  }

  @Test func alphaZeroIsUniform() {
    let sampler = DiscreteSampler(zipfObjects: 4, alpha: 0)
    let random = GSLRandom(seed: 2)
    var counts = [0, 0, 0, 0]
    for _ in 0..<40_000 { counts[sampler.sample(random)] += 1 }
    #expect(counts.allSatisfy { abs($0 - 10_000) < 500 })
  }
}

@Suite struct SizeDistributionTests {
  @Test(arguments: [
    "fixed:4096", "fixed:size=4KiB", "uniform:min=10,max=20", "lognormal:mu=8,sigma=1,min=64,max=1MiB",
    "pareto:shape=1.5,min=1KiB,max=1MiB", "lognormal",
  ])
  func samplesStayInRange(text: String) throws {
    let distribution = try SizeDistribution(parsing: text)
    let random = GSLRandom(seed: 3)
    let bounds: ClosedRange<Int64>
    switch distribution {
    case .fixed(let size): bounds = size...size
    case .uniform(let range), .lognormal(_, _, let range), .pareto(_, let range): bounds = range
    }
    var seen: Set<Int64> = []
    for _ in 0..<10_000 {
      let size = distribution.sample(random)
      #expect(bounds.contains(size))
      seen.insert(size)
    }
    if bounds.count > 1 { #expect(seen.count > 5) }
    #expect(try SizeDistribution(parsing: distribution.description) == distribution)
  }

  @Test func lognormalMedianMatchesMu() throws {
    let distribution = try SizeDistribution(parsing: "lognormal:mu=8.318,sigma=1.5,min=1,max=1GiB")
    let random = GSLRandom(seed: 4)
    let sizes = (0..<20_001).map { _ in distribution.sample(random) }.sorted()
    #expect(abs(Double(sizes[10_000]) - 4096) < 250)
  }

  @Test(arguments: [
    "gamma", "uniform:min=20,max=10", "lognormal:sigma=-1", "fixed:abc", "uniform:size=3", "pareto:min=0,max=10",
  ])
  func invalidDistributionsAreRejected(text: String) {
    #expect(throws: ConfigurationError.self) { _ = try SizeDistribution(parsing: text) }
  }
}

@Suite struct ZipfWorkloadTests {
  static func generate(_ workload: ZipfWorkload, csv: Bool) throws -> String {
    let path = Paths.temporaryDirectory().appendingPathComponent(csv ? "z.csv" : "z.oracleGeneral.bin").path
    let writer: any TraceWriter =
      csv ? try CSVTraceWriter(path: path) : try OracleGeneralWriter(path: path, computeNextAccess: true)
    try workload.generate(into: writer)
    try writer.commit()
    return path
  }

  @Test func theSameSeedWritesTheSameFile() throws {
    let workload = ZipfWorkload(objects: 500, requests: 20_000, alpha: 0.9, seed: 42)
    let a = try Data(contentsOf: URL(fileURLWithPath: Self.generate(workload, csv: false)))
    let b = try Data(contentsOf: URL(fileURLWithPath: Self.generate(workload, csv: false)))
    var other = workload
    other.seed = 43
    let c = try Data(contentsOf: URL(fileURLWithPath: Self.generate(other, csv: false)))
    #expect(a == b)
    #expect(a != c)
    #expect(a.count == 20_000 * 24)
  }

  @Test func oracleOutputHasExactNextAccessAndStableSizes() throws {
    let workload = ZipfWorkload(objects: 300, requests: 10_000, alpha: 1.0, seed: 9, rate: 50)
    let path = try Self.generate(workload, csv: false)
    let requests = try TraceSpec(parsing: "oracle-general").open(path).collect()
    #expect(requests.count == 10_000)
    // Re-encoding with independently computed next-access indices gives the same bytes.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect([UInt8](bytes) == SyntheticTraces.oracleGeneral(requests))
    var sizes: [UInt64: Int64] = [:]
    for request in requests {
      #expect(sizes[request.key, default: request.size] == request.size, "an object's size never changes")
      sizes[request.key] = request.size
      #expect((64...(1 << 20)).contains(request.size))
    }
    #expect(sizes.count > 200 && sizes.count <= 300)
    // Times are non-decreasing, about 10 000 / 50 = 200 s long.
    #expect(zip(requests, requests.dropFirst()).allSatisfy { $0.time <= $1.time })
    #expect(abs(Double(requests.last!.time) / 1e6 - 200) < 20)
  }

  @Test func csvAndOracleOutputsCarryTheSameRequests() throws {
    let workload = ZipfWorkload(objects: 100, requests: 2000, alpha: 0.8, seed: 1)
    let csv = try TraceSpec(parsing: "csv").open(Self.generate(workload, csv: true)).collect()
    let oracle = try TraceSpec(parsing: "oracle-general").open(Self.generate(workload, csv: false)).collect()
    #expect(csv.map(\.key) == oracle.map(\.key))
    #expect(csv.map(\.size) == oracle.map(\.size))
    #expect(csv.map { $0.time / 1_000_000 } == oracle.map { $0.time / 1_000_000 })
  }
}

@Suite struct DefaultTraceTests {
  /// The trace the main job ships with is exactly what the documented `gen zipf` command
  /// writes (see Traces/README.md): anyone can regenerate it.
  @Test func theCommittedDefaultTraceIsReproducible() throws {
    let committed = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin")
    let workload = ZipfWorkload(objects: 10_000, requests: 80_000, alpha: 0.9, seed: 2026, rate: 100)
    let regenerated = try ZipfWorkloadTests.generate(workload, csv: false)
    #expect(
      try Data(contentsOf: committed) == Data(contentsOf: URL(fileURLWithPath: regenerated)),
      "Traces/zipf-demo.oracleGeneral.bin differs from: cachelab gen zipf --objects 10000 --requests 80000 --alpha 0.9 --seed 2026 --rate 100"
    )
  }

  /// The HTTP trace of the regression baseline is what `gen http` writes.
  @Test func theCommittedHTTPTraceIsReproducible() throws {
    let committed = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv")
    var text = ""
    try HTTPWorkload(requests: 10_000, seed: 2026, objects: 1_000).generate { (line) throws(FileError) in text += line }
    #expect(
      try String(contentsOf: committed, encoding: .utf8) == text,
      "Traces/http-demo.cachelab.csv differs from: cachelab gen http --requests 10000 --objects 1000 --seed 2026")
  }
}
