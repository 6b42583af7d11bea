import CacheCore
import Engine
import Testing

/// Tier specifications as reports and labels print them: human units that parse back exactly.
@Suite struct TierSpecificationTests {
  @Test(arguments: [
    ("lru:64MiB", "lru:64MiB"), ("nscache:100000000cost", "nscache:count-limit=0:100000000-cost"),
    ("access-date-purge:low=0.6:100MiB-cost", "access-date-purge:low=0.6:100MiB-cost"),
    ("fifo:104857600cost", "fifo:100MiB-cost"), ("lru:10objects", "lru:10objects"),
    ("fifo:unlimited", "fifo:unlimited"),
    ("lru:100000000", "lru:100000000"),
  ])
  func printsHumanUnitsThatParseBack(text: String, printed: String) throws {
    let tier = try TierConfiguration(parsing: text)
    #expect(tier.description == printed)
    let again = try TierConfiguration(parsing: tier.description)
    #expect(again.capacity == tier.capacity && again.unit == tier.unit)
  }

  @Test func presetLabelsShowByteParametersInHumanUnits() throws {
    let spec = try PresetSpec(parsing: "kingfisher:memory=536870912")
    #expect(spec.description == "kingfisher:memory=512MiB")
    #expect(spec.configuration.memory?.description == "fifo:512MiB-cost")
  }
}

/// A tier's `,admission=SPEC` field: parsed, printed back, and obeyed by the engine.
@Suite struct TierAdmissionTests {
  @Test func admissionFieldParsesAndPrintsBack() throws {
    let tier = try TierConfiguration(parsing: "lru:64MiB,admission=size:threshold=1KiB")
    #expect(tier.policy.admission?.description == "size:threshold=1KiB")
    #expect(tier.description == "lru:64MiB,admission=size:threshold=1KiB")
    let again = try TierConfiguration(parsing: tier.description)
    #expect(again.description == tier.description)
    #expect(throws: ConfigurationError.self) { try TierConfiguration(parsing: "lru:64MiB,admission=nope") }
  }

  @Test func memoryTierRefusesWhatItsAdmissionPolicyRefuses() throws {
    let driver = try EngineDriver(
      EngineConfiguration(
        name: "engine", memory: try TierConfiguration(parsing: "lru:1MiB,admission=size:threshold=100")))
    var results: [EngineDriver.Result] = []
    for round in 0..<3 {
      for key: UInt64 in 1...4 {
        results.append(try driver.get(key, at: Double(round), size: key <= 2 ? 50 : 500))
      }
    }
    // Keys 1 and 2 (50 B) are admitted and then hit; keys 3 and 4 (500 B) are fetched every time.
    #expect(results.filter { $0 == .memoryHit }.count == 4)
    #expect(results.filter { $0 == .fetched }.count == 8)
    #expect(results[4...].filter { $0 == .memoryHit }.count == 4)
  }
}
