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
