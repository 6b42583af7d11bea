import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// Policies written against the libcachesim 0.3.5 package (libCacheSim's current code), with
/// the package's misses and miss bytes on cloudPhysics (each package cache run in a fresh
/// thread, so its generator starts at 0xdeadbeef, and the Python API's default hash power 24):
/// all equal, the sampling policies through CacheLab's port of libCacheSim's hash table.
/// `Scripts/peer-diff.sh` checks them against the package itself on every shared trace.
@Suite struct PackageConformanceTests {
  static let trace = "libcachesim/cloudPhysicsIO.oracleGeneral.bin"

  /// Policy: (misses, miss bytes) at 64 MiB and 256 MiB, then misses at 500 and 2000 objects.
  static let expected: [String: [Int64]] = [
    "car": [92653, 4_215_318_528, 83605, 3_769_425_920, 94220, 92843],
    "s3fifo-2024": [92354, 4_206_275_072, 80915, 3_573_827_584, 94559, 92990],
    "slru-v0": [92227, 4_228_239_872, 87238, 3_924_127_744, 94579, 93636],
    "arc-v0": [92686, 4_217_777_152, 82956, 3_736_955_904, 94218, 92829],
    "s3fifod": [92207, 4_186_735_616, 80630, 3_625_704_960, 94330, 92340],
    "fifo-merge": [93606, 4_262_852_608, 88052, 4_002_350_080, 94930, 93478],
    "lecar:generator=lehmer64": [93978, 4_256_241_664, 89051, 4_019_908_096, 95248, 94180],
    "hyperbolic": [93728, 4_254_495_232, 89453, 4_064_707_584, 95005, 93692],
    "random-two": [94236, 4_254_726_144, 88898, 4_006_301_696, 96051, 94192],
    "random-lru": [94186, 4_255_943_680, 89613, 4_049_282_560, 95388, 94197],
    "flash-prob": [93984, 4_222_046_208, 89120, 3_969_783_808, 97221, 94471],
    "cacheus": [92324, 4_186_841_088, 82067, 3_672_805_888, 95111, 94196],
    "lru-prob": [94222, 4_257_573_888, 89543, 4_055_795_200, 95654, 94242],
    "lfu": [92965, 4_235_345_920, 86720, 3_917_211_648, 96651, 93707],
    "wtinylfu-lcs": [92374, 4_208_510_464, 84189, 3_723_320_832, 96247, 93795],
    "belady-size": [81074, 3_825_697_280, 64560, 3_046_984_704, 90258, 81952],
  ]

  static func run(_ policies: [String], sizes: String, objectMode: Bool) throws -> RunResult {
    try Replayer(
      RunConfiguration(
        tracePath: Paths.sharedTrace(trace), trace: TraceSpec(parsing: "oracle-general"),
        policies: policies.map { try PolicySpec(parsing: $0) },
        capacities: CapacitySpec.parseList(sizes, objectMode: objectMode), ignoreSize: objectMode)
    ).run()
  }

  @Test(.enabled(if: Paths.sharedTraceAvailable(trace)))
  func newPoliciesMatchTheLibcachesimPackage() throws {
    let names = Self.expected.keys.sorted()
    let bytes = try Self.run(names, sizes: "64MiB,256MiB", objectMode: false)
    let objects = try Self.run(names, sizes: "500,2000", objectMode: true)
    for name in names {
      let policy = try PolicySpec(parsing: name)
      let byteRows = bytes.caches.filter { $0.policy?.description == policy.description }
      let objectRows = objects.caches.filter { $0.policy?.description == policy.description }
      let measured =
        byteRows.flatMap { [$0.counters.misses, $0.counters.missBytes] } + objectRows.map(\.counters.misses)
      let expected = Self.expected[name]!
      #expect(measured == expected, "\(name)")
    }
  }
}
