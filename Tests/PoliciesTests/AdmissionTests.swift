import CacheCore
import Policies
import TestSupport
import Testing

/// Admission policies: their rules on hand-worked traces, and every eviction policy asking
/// them before it inserts (registry-driven, so a new policy is checked automatically).
@Suite struct AdmissionTests {
  static let policies = PolicyRegistry.all.map(\.descriptor.name)

  static func driver(_ policy: String, _ admission: String, capacity: Int64, seed: UInt64 = 7) throws -> PolicyDriver {
    try PolicyDriver(
      PolicySpec(parsing: policy, admission: AdmissionSpec(parsing: admission)), capacity: capacity, seed: seed)
  }

  /// An admission policy that admits nothing leaves every policy empty: gets and puts all
  /// refused, every get a miss, each refusal counted.
  @Test(arguments: policies)
  func everyPolicyAsksAdmissionBeforeInserting(name: String) throws {
    let driver = try Self.driver(name, "size:threshold=1", capacity: 1000)
    let requests = SyntheticTraces.requests(count: 400, objects: 40, sizes: 1...50, seed: 11)
    for request in requests { #expect(!driver.serve(request), "\(name) hit an object it was never allowed to keep") }
    var put = request(99, size: 5)
    put.operation = .put
    driver.serve(put)
    #expect(driver.simulation.objectCount == 0, "\(name) holds \(driver.simulation.objectCount) objects")
    #expect(driver.simulation.occupiedBytes == 0)
    #expect(driver.simulation.counters.misses == 400)
    #expect(driver.simulation.counters.declined == 401, "every get and the put refused")
    #expect(driver.simulation.counters.rejected == 400, "rejected counts misses only")
    try driver.simulation.checkInvariants()
  }

  /// `bloom-filter` in front of every policy: a key requested once never enters, and the
  /// second miss of a key is admitted (the cache holds it afterwards, room permitting).
  @Test(arguments: policies)
  func bloomFilterAdmitsFromTheSecondMiss(name: String) throws {
    let driver = try Self.driver(name, "bloom-filter", capacity: 1000)
    for key in 1...50 { driver.serve(request(UInt64(key), size: 4)) }
    #expect(driver.simulation.objectCount == 0, "\(name): objects seen once were admitted")
    #expect(driver.simulation.counters.declined == 50)
    driver.serve(request(7, size: 4))
    #expect(driver.simulation.counters.declined == 50, "\(name): a second miss was refused")
    #expect(driver.simulation.counters.misses == 51)
  }

  /// Worked by hand with LRU and room for everything: a a b a b c.
  @Test func bloomFilterWorkedExample() throws {
    let driver = try Self.driver("lru", "bloom-filter", capacity: 100)
    let hits = [1, 1, 2, 1, 2, 3].map { driver.serve(request(UInt64($0))) }
    #expect(hits == [false, false, false, true, false, false])
    #expect(driver.simulation.counters.declined == 3)
    #expect(driver.simulation.objectCount == 2)
  }

  /// `size`: strictly below the threshold (an object of exactly the threshold is refused);
  /// `size=` is libCacheSim's spelling.
  @Test func sizeAdmitsStrictlyBelowTheThreshold() throws {
    let driver = try Self.driver("lru", "size:size=100", capacity: 10_000)
    driver.serve(request(1, size: 99))
    driver.serve(request(2, size: 100))
    #expect(driver.serve(request(1, size: 99)))
    #expect(!driver.serve(request(2, size: 100)))
    #expect(driver.simulation.counters.declined == 2)
    #expect(try AdmissionSpec(parsing: "size:size=1KiB").description == "size:threshold=1KiB")
  }

  /// `prob`: libCacheSim's rule on its lehmer64 stream (from 0xdeadbeef + seed), so the
  /// admitted misses are exactly those whose draw modulo 10⁷ falls below p·10⁷.
  @Test func probabilisticAdmissionFollowsTheSeededDraws() throws {
    let count = 5000
    for seed: UInt64 in [0, 42] {
      let driver = try Self.driver("lru", "prob:p=0.3", capacity: Int64(count), seed: seed)
      var random = Lehmer64(state: 0xdead_beef + seed)
      var expected: Int64 = 0
      for key in 0..<count {
        driver.serve(request(UInt64(key)))
        if random.next() % 10_000_000 < 3_000_000 { expected += 1 }
      }
      #expect(Int64(driver.simulation.objectCount) == expected)
      #expect(driver.simulation.counters.declined == Int64(count) - expected)
      #expect(abs(Double(expected) / Double(count) - 0.3) < 0.03)
    }
  }

  /// `size-prob`: e^(−exponent·size), so tiny objects almost always enter and large ones
  /// almost never.
  @Test func sizeProbabilisticFavoursSmallObjects() throws {
    let driver = try Self.driver("lru", "size-prob:exponent=0.001", capacity: 1 << 40)
    for key in 0..<2000 { driver.serve(request(UInt64(key), size: 1)) }
    for key in 2000..<4000 { driver.serve(request(UInt64(key), size: 5000)) }
    // Expected: 2000·e^(−0.001) ≈ 1998 small and 2000·e^(−5) ≈ 13 large objects admitted.
    #expect(driver.simulation.objectCount > 1980 && driver.simulation.objectCount < 2040)
    #expect(driver.simulation.counters.declined > 1960 && driver.simulation.counters.declined < 2020)
  }

  /// libCacheSim's lehmer64 from 0xdeadbeef: the first draws of the libcachesim package.
  @Test func lehmer64MatchesLibCacheSim() {
    var random = Lehmer64(state: Lehmer64.libCacheSimState)
    let draws = (0..<5).map { _ in random.next() }
    #expect(
      draws == [
        3_189_820_697, 6_199_708_794_445_739_982, 10_757_353_228_193_073_621, 1_199_574_385_585_699_432,
        1_443_071_350_103_987_160,
      ])
  }

  /// Lists: `none` is no admission; `key=value` items continue the previous spec; unknown
  /// names suggest the closest.
  @Test func listsParseLikePolicyLists() throws {
    let specs = try AdmissionSpec.parseList("none,size:threshold=10,bloom,prob:p=0.2")
    #expect(specs.map { $0?.description ?? "none" } == ["none", "size:threshold=10", "bloom-filter", "prob:p=0.2"])
    #expect(specs[1]?.label == "size:threshold=10")
    #expect(throws: ConfigurationError.self) { try AdmissionSpec(parsing: "bloom-filtr") }
    do {
      _ = try AdmissionSpec(parsing: "bloom-filtr")
    } catch {
      #expect(error.description.contains("bloom-filter"))
    }
    #expect(throws: ConfigurationError.self) { try AdmissionSpec(parsing: "prob:p=2") }
  }
}
