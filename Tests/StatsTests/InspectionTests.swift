import Analysis
import CacheCore
import Foundation
import TestSupport
import Testing
import Traces
import Workloads

/// `cachelab inspect`'s figures on hand-worked and generated traces.
@Suite struct InspectionTests {
  /// Keys a b a c b a d: distances — a: 1 (b), b: 2 (a, c), a: 2 (c, b); c and d are
  /// requested once.
  @Test func handWorkedTrace() throws {
    let path = Paths.temporaryFile(
      "inspect.csv", text: "time,key,size\n0,a,10\n1,b,20\n2,a,10\n3,c,30\n4,b,20\n5,a,10\n9,d,40\n")
    let inspection = try TraceInspection.inspect(path, format: TraceSpec(parsing: "csv"))
    #expect(inspection.requests == 7 && inspection.requestBytes == 140)
    #expect(inspection.uniqueObjects == 4 && inspection.workingSetBytes == 100)
    #expect(inspection.oneHitWonders == 2 && inspection.oneHitWonderRatio == 0.5)
    // Buckets: 0 | 1 | 2–3: one distance of 1, two of 2.
    #expect(inspection.reuseHistogram == [0, 1, 2])
    #expect(inspection.firstTime == 0 && inspection.lastTime == 9_000_000)
    let sizes = try #require(inspection.sizes)
    #expect(sizes.minimum == 10 && sizes.maximum == 40 && sizes.mean == 25)
    // Sizes 10 → [8, 16), 20 → [16, 32), 30 → [16, 32), 40 → [32, 64).
    #expect(inspection.sizeHistogram == [0, 0, 0, 1, 2, 1])
    #expect(inspection.zipfAlpha == nil, "only two objects were requested twice")
  }

  /// Distances agree with a direct count over a random trace.
  @Test func reuseDistancesMatchABruteForceCount() throws {
    let requests = SyntheticTraces.requests(count: 3_000, objects: 300, seed: 4)
    let path = Paths.temporaryFile("reuse.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
    var expected: [Int64] = []
    var last: [UInt64: Int] = [:]
    for (index, request) in requests.enumerated() {
      if let previous = last[request.key] {
        let distance = Set(requests[(previous + 1)..<index].map(\.key)).count
        let bucket = distance == 0 ? 0 : Int.bitWidth - distance.leadingZeroBitCount
        if expected.count <= bucket { expected += [Int64](repeating: 0, count: bucket + 1 - expected.count) }
        expected[bucket] += 1
      }
      last[request.key] = index
    }
    let inspection = try TraceInspection.inspect(path, format: TraceSpec(parsing: "oracle-general"))
    #expect(inspection.reuseHistogram == expected)
  }

  /// The fitted exponent of generated Zipf traces is close to the generator's α.
  @Test(arguments: [0.8, 1.0, 1.2])
  func zipfExponentIsRecovered(alpha: Double) throws {
    let path = Paths.temporaryDirectory("zipf").appendingPathComponent("z.oracleGeneral.bin").path
    let workload = ZipfWorkload(objects: 5_000, requests: 200_000, alpha: alpha, seed: 9)
    let writer = try OracleGeneralWriter(path: path, computeNextAccess: false)
    try workload.generate(into: writer)
    try writer.commit()
    let inspection = try TraceInspection.inspect(path, format: TraceSpec(parsing: "oracle-general"))
    let fitted = try #require(inspection.zipfAlpha)
    #expect(abs(fitted - alpha) < 0.1, "fitted \(fitted) for α = \(alpha)")
    #expect((inspection.zipfRSquared ?? 0) > 0.9)
  }
}
