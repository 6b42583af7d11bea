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
    ("headers=lots", "no byte count"), ("memory=2h", "at most 1h"),
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
