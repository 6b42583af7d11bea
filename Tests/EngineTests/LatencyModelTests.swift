import CacheCore
import Engine
import Testing

/// The latency model as configuration: SPECs and profiles set exactly the costs they say,
/// and the engine charges them.
@Suite struct LatencyModelTests {
  static let issueSpec = "memory=20us,disk=80us+1.2GB/s,disk-write=150us+800MB/s,origin=trace|45ms+25Mbit/s"

  @Test func theIssuesSpecSetsExactlyItsFields() throws {
    let model = try LatencySpec(parsing: Self.issueSpec).applied(to: LatencyModel())
    #expect(model.memory == LatencyCost(fixed: 20))
    #expect(model.diskRead == LatencyCost(fixed: 80, bytesPerSecond: 1.2e9))
    #expect(model.diskWrite == LatencyCost(fixed: 150, bytesPerSecond: 8e8), "disk-write wins over disk")
    #expect(model.origin == LatencyCost(fixed: 45_000, bytesPerSecond: 3_125_000) && model.originFromTrace)
    #expect(model.revalidation == nil && model.headerBytes == 300 && model.diskDelete == LatencyCost(fixed: 0))
  }

  @Test func aSpecificDiskKeyWinsWhateverTheOrderAndOthersKeepTheirDefaults() throws {
    let first = try LatencySpec(parsing: "disk-write=150us,disk=80us").applied(to: LatencyModel())
    let last = try LatencySpec(parsing: "disk=80us,disk-write=150us").applied(to: LatencyModel())
    #expect(first == last && first.diskWrite == LatencyCost(fixed: 150) && first.diskRead == LatencyCost(fixed: 80))
    var expected = LatencyModel()
    (expected.diskRead, expected.diskWrite) = (LatencyCost(fixed: 80), LatencyCost(fixed: 150))
    #expect(first == expected)
  }

  @Test func aBareTraceKeepsTheOriginCostAlreadySet() throws {
    let profile = try LatencySpec(parsing: "origin=562.5ms+180000B/s").applied(to: LatencyModel())
    #expect(!profile.originFromTrace && profile.origin == LatencyCost(fixed: 562_500, bytesPerSecond: 180_000))
    let traced = try LatencySpec(parsing: "origin=trace").applied(to: profile)
    #expect(traced.originFromTrace && traced.origin == profile.origin)
  }

  @Test func everyModelPrintsAsASpecThatReadsBackToIt() throws {
    var models = [LatencyModel(), try LatencySpec(parsing: Self.issueSpec).applied(to: LatencyModel())]
    models.append(
      try LatencySpec(parsing: "revalidation=30ms+1MB/s,headers=1KiB,disk-touch=0.5ms").applied(to: LatencyModel()))
    models.append(
      try LatencySpec(parsing: "disk=30us+1.8GB/s~1.45,disk-write=1ms~2,disk-read-after-write=60us+1.5GB/s~1.8")
        .applied(to: LatencyModel()))
    for profile in LatencyProfile.all { models.append(try profile.settings().applied(to: LatencyModel())) }
    for model in models {
      let again = try LatencySpec(parsing: model.description).applied(to: LatencyModel())
      #expect(again == model, "\(model)")
    }
    #expect(
      LatencyModel().description
        == "memory=20us,disk-read=100us+500MB/s,disk-write=100us+500MB/s,disk-delete=0us,disk-touch=0us,"
        + "revalidation=origin,origin=trace|100ms+10MB/s,headers=300B")
  }

  @Test(arguments: [
    ("dsk=1us", "did you mean 'disk'?"), ("disk=1us,disk=2us", "given twice"), ("disk=25M/s", "no bandwidth"),
    ("memory", "no KEY=VALUE"), ("origin=trace|fast", "no duration"), ("memory=1us+2us+3us", "no cost"),
    ("headers=lots", "no byte count"), ("memory=2h", "at most 1h"), ("disk=1us~0.5", "no spread"),
    ("disk-read=1us~many", "no spread"), ("disk=1us~1.2~1.3", "more than one"), ("disk=1us~101", "no spread"),
    ("memory=20us~1.5", "only the disk keys"), ("origin=trace|45ms~2", "only the disk keys"),
    ("revalidation=30ms~2", "only the disk keys"), ("disk-delete=1ms~2", "only the disk keys"),
  ])
  func badSpecsSayWhatIsWrong(spec: String, message: String) {
    #expect {
      try LatencySpec(parsing: spec)
    } throws: { error in
      (error as? ConfigurationError)?.message.contains(message) == true
    }
  }

  @Test func everyProfileCitesItsSourceAndSetsOnlyItsKind() throws {
    #expect(LatencyProfile.all.count >= 8)
    for profile in LatencyProfile.all {
      let keys = Set(try profile.settings().settings.map(\.key))
      #expect(!keys.isEmpty && profile.source.count > 20, "\(profile.name)")
      switch profile.kind {
      case .network: #expect(keys == [.origin], "\(profile.name) sets \(keys)")
      case .disk: #expect(keys.isDisjoint(with: [.origin, .revalidation, .memory]), "\(profile.name) sets \(keys)")
      }
    }
    let fast4G = try LatencyProfile.registry.named("chrome-devtools-fast-4g").settings().applied(to: LatencyModel())
    #expect(fast4G.origin == LatencyCost(fixed: 165_000, bytesPerSecond: 1_012_500) && !fast4G.originFromTrace)
  }

  /// A disk-only engine whose latency model is `spec`.
  static func diskEngine(_ spec: String) throws -> EngineDriver {
    let configuration = EngineConfiguration(
      name: "t", memory: nil, disk: try TierConfiguration(parsing: "lru:100MiB"),
      latency: try LatencySpec(parsing: spec).applied(to: LatencyModel()))
    return try EngineDriver(configuration)
  }

  @Test func aDiskHitCostsTheReadsFixedPartPlusItsBytesOverItsBandwidth() throws {
    let driver = try Self.diskEngine("disk=80us+1.2GB/s")
    #expect(try driver.get(1, at: 1, size: 1_200_000) == .fetched)
    #expect(try driver.get(1, at: 2, size: 1_200_000) == .diskHit)
    #expect(driver.engine.stats.latency.min == 1_080, "80 µs + 1,200,000 B at 1.2 GB/s")
  }

  @Test func aSpreadDrawsTimesWhoseMedianIsTheLineAndWhoseP90IsTheSpreadTimesIt() {
    var random = SplitMix64(seed: 7)
    let cost = LatencyCost(fixed: 1_000, spread: 1.6)
    let times = (0..<200_000).map { _ in cost.cost(0, random: &random) }.sorted()
    let median = Double(times[times.count / 2])
    let p90 = Double(times[times.count * 9 / 10])
    #expect(abs(median - 1_000) <= 10, "median \(median)")
    #expect(abs(p90 / median - 1.6) <= 0.02, "p90 / median \(p90 / median)")
    var untouched = SplitMix64(seed: 7)
    #expect(LatencyCost(fixed: 1_000).cost(0, random: &untouched) == 1_000)
    var fresh = SplitMix64(seed: 7)
    #expect(untouched.next() == fresh.next(), "no spread, no draw")
  }

  @Test func aSimulatedDiskSpreadsItsReadsAlikeOnEveryRun() throws {
    /// The disk hits' p50, p90 and p99 over 2,000 reads of one 1.2 MB object.
    func diskHits(_ spec: String) throws -> [Double] {
      let driver = try Self.diskEngine(spec)
      #expect(try driver.get(1, at: 1, size: 1_200_000) == .fetched)
      for time in 2...2_001 { #expect(try driver.get(1, at: Double(time), size: 1_200_000) == .diskHit) }
      let hits = try #require(driver.engine.stats.tiers).diskHit
      #expect(hits.totalCount == 2_000)
      return [50.0, 90.0, 99.0].map { Double(hits.valueAtPercentile($0)) }
    }
    let plain = try diskHits("disk=80us+1.2GB/s")
    #expect(Set(plain).count == 1 && abs(plain[0] - 1_080) <= 1, "no spread: every read costs the line, \(plain)")
    let spread = try diskHits("disk=80us+1.2GB/s~1.5")
    #expect(try diskHits("disk=80us+1.2GB/s~1.5") == spread, "seeded: the same times every run")
    #expect(abs(spread[0] / 1_080 - 1) <= 0.05 && abs(spread[1] / spread[0] - 1.5) <= 0.1, "\(spread)")
  }

  @Test func onlyTheFirstReadAfterAWriteCostsTheReadAfterWriteCost() throws {
    /// The disk-hit latencies (µs, to the histogram's precision) of reads of object 1 after
    /// its fetch, with `reads` before a second object's fetch and one read after.
    func reads(_ spec: String) throws -> [Double] {
      let driver = try Self.diskEngine(spec)
      var latencies: [Double] = []
      func read(at time: Double) throws {
        let before = try #require(driver.engine.stats.tiers).diskHit.totalCount
        #expect(try driver.get(1, at: time, size: 1_000) == .diskHit)
        let hits = try #require(driver.engine.stats.tiers).diskHit
        #expect(hits.totalCount == before + 1)
        latencies.append(Double(hits.max))
      }
      #expect(try driver.get(1, at: 1, size: 1_000) == .fetched)
      try read(at: 2)
      #expect(try driver.get(2, at: 3, size: 1_000) == .fetched)
      try read(at: 4)
      return latencies
    }
    let charged = try reads("disk=80us,disk-read-after-write=500us")
    #expect(charged.allSatisfy { abs($0 - 500) <= 5 }, "each read straight after a write: \(charged)")
    let plain = try Self.diskEngine("disk=80us,disk-read-after-write=500us")
    #expect(try plain.get(1, at: 1, size: 1_000) == .fetched)
    for time in 2...3 { #expect(try plain.get(1, at: Double(time), size: 1_000) == .diskHit) }
    let hits = try #require(plain.engine.stats.tiers).diskHit
    #expect(abs(Double(hits.min) - 80) <= 1 && abs(Double(hits.max) - 500) <= 5, "the second read costs disk-read")
    let unset = try reads("disk=80us")
    #expect(unset.allSatisfy { abs($0 - 80) <= 1 }, "unset: disk-read, \(unset)")
  }

  @Test func theOriginTakesTheTracesRoundTripOnlyUnderTrace() throws {
    let expectedTransfer = Int64(Double(100_000 + 300) / 3_125_000 * 1e6)
    for (spec, rowLatency, expected) in [
      ("origin=trace|45ms+25Mbit/s", 0.001, 1_000 + expectedTransfer),
      ("origin=trace|45ms+25Mbit/s", -0.000001, 45_000 + expectedTransfer),
      ("origin=45ms+25Mbit/s", 0.001, 45_000 + expectedTransfer),
    ] as [(String, Double, Int64)] {
      let driver = try Self.diskEngine(spec)
      #expect(try driver.get(1, at: 1, size: 100_000, latency: rowLatency) == .fetched)
      let recorded = Int64(driver.engine.stats.latency.max)
      #expect(abs(recorded - expected) <= expected / 1000, "\(spec), row latency \(rowLatency): \(recorded)")
    }
  }
}
