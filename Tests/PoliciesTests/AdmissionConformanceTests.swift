import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// Admission policies in front of LRU on cloudPhysics (byte mode) give exactly the misses and
/// miss bytes of libCacheSim's admissioners as the libcachesim 0.3.5 package runs them (each
/// cache in a fresh thread, so its generator starts at 0xdeadbeef). `Scripts/peer-diff.sh`
/// checks the same against the package itself on every shared trace.
@Suite struct AdmissionConformanceTests {
  static let trace = "libcachesim/cloudPhysicsIO.oracleGeneral.bin"

  /// (admission, capacity, misses, miss bytes) measured with libcachesim 0.3.5.
  static let expected: [(String, Int64, Int64, Int64)] = [
    ("adaptsize", 16 << 20, 96306, 4_291_184_640),
    ("adaptsize", 64 << 20, 88765, 4_162_200_064),
    ("adaptsize", 256 << 20, 80862, 3_918_359_040),
    ("adaptsize", 1 << 30, 76253, 3_702_460_928),
    ("bloom-filter", 64 << 20, 95927, 4_255_730_176),
    ("bloom-filter", 256 << 20, 90386, 3_979_631_104),
    ("prob:p=0.3", 64 << 20, 97375, 4_262_416_384),
    ("prob:p=0.3", 256 << 20, 90377, 3_906_248_192),
    ("size:size=8192", 64 << 20, 93736, 4_304_064_000),
    ("size-prob:exponent=1e-4", 64 << 20, 87845, 4_242_141_696),
    ("size-prob:exponent=1e-4", 256 << 20, 87822, 4_241_881_600),
  ]

  @Test(.enabled(if: Paths.sharedTraceAvailable(trace)))
  func lruWithEachAdmissionPolicyMatchesTheLibcachesimPackage() throws {
    var policies: [PolicySpec] = []
    var seen: Set<String> = []
    for (admission, _, _, _) in Self.expected where seen.insert(admission).inserted {
      policies.append(try PolicySpec(parsing: "lru", admission: AdmissionSpec(parsing: admission)))
    }
    let result = try Replayer(
      RunConfiguration(
        tracePath: Paths.sharedTrace(Self.trace), trace: TraceSpec(parsing: "oracle-general"), policies: policies,
        capacities: CapacitySpec.parseList("16MiB,64MiB,256MiB,1GiB", objectMode: false))
    ).run()
    for (admission, capacity, misses, missBytes) in Self.expected {
      let label = try PolicySpec(parsing: "lru", admission: AdmissionSpec(parsing: admission)).label
      let cache = result.caches.first { $0.policy?.label == label && $0.capacityLimit == capacity }
      #expect(cache?.counters.misses == misses, "\(admission) at \(capacity)")
      #expect(cache?.counters.missBytes == missBytes, "\(admission) at \(capacity)")
    }
  }
}
