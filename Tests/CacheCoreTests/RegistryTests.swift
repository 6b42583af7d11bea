import CacheCore
import Testing

/// The generic registry behind policies, formats and presets: lookup, specs, registration.
@Suite struct GenericRegistryTests {
  struct Item: RegistryEntry {
    var name: String
    var aliases: [String] = []
    var summary = "an item"
    var parameters: [ParameterSpec] = []
  }

  static func registry() -> Registry<Item> {
    Registry(
      kind: "item", plural: "items",
      [
        Item(name: "alpha", aliases: ["first"]),
        Item(name: "beta", parameters: [ParameterSpec("size", default: "3", .integer(1...9), help: "how big")]),
      ])
  }

  @Test func namesAndAliasesAreFoundCaseInsensitively() throws {
    let registry = Self.registry()
    #expect(try registry.named("ALPHA").name == "alpha")
    #expect(try registry.named("First").name == "alpha")
    #expect {
      _ = try registry.named("bata")
    } throws: { error in
      "\(error)".contains("unknown item 'bata' (did you mean 'beta'?); known items: alpha, beta")
    }
  }

  @Test func specsParseParametersWithDefaults() throws {
    let registry = Self.registry()
    let (entry, parameters) = try registry.parse(" beta :size=5")
    #expect(entry.name == "beta" && parameters.string("size") == "5")
    #expect(try registry.parse("beta").parameters.string("size") == "3")
    #expect(throws: ConfigurationError.self) { _ = try registry.parse("beta:size=12") }
    #expect(throws: ConfigurationError.self) { _ = try registry.parse(":size=5") }
  }

  @Test func registrationAppendsAndRefusesTakenNames() throws {
    let registry = Self.registry()
    try registry.register(Item(name: "gamma", aliases: ["third"]))
    #expect(registry.all.map(\.name) == ["alpha", "beta", "gamma"])
    #expect(try registry.named("third").name == "gamma")
    #expect {
      try registry.register(Item(name: "delta", aliases: ["first"]))
    } throws: { error in
      "\(error)".contains("taken by item 'alpha'")
    }
    #expect(registry.all.count == 3)
  }

  @Test func listingAndMarkdownCoverEveryEntry() {
    let registry = Self.registry()
    #expect(registry.listing() == "alpha  an item\nbeta   an item\n       size=3  how big\n")
    let table = registry.markdownTable([("name", { "`\($0.name)`" }), ("parameters", \.parametersCell)])
    #expect(
      table == "| name | parameters |\n|---|---|\n| `alpha` | (aliases: first) |\n| `beta` | `size=3` |\n")
  }
}
