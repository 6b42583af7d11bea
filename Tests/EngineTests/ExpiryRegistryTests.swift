import CacheCore
import Testing

@testable import Engine

/// `--expiry` specs go through the expiry registry: every rule parses by name, shorthands mean
/// their key=value forms, a rule's printed name parses back to the same rule, and a rule
/// registered from outside is accepted.
@Suite struct ExpiryRegistryTests {
  @Test(arguments: ExpiryModel.registry.all.map(\.name))
  func everyRegisteredRuleParsesAndItsNameRoundTrips(name: String) throws {
    let model = try ExpiryModel(parsing: name)
    #expect(model.rule.name.hasPrefix(name))
    #expect(try ExpiryModel(parsing: model.description) == model)
  }

  @Test func shorthandsMeanTheirKeyValueForms() throws {
    let pairs = [
      ("ttl:300s,sliding", "ttl:duration=300s,sliding=true"), ("ttl:90s", "ttl:duration=90s"),
      ("http:shared", "http:shared=true"), ("http:heuristic=0.2,shared", "http:shared=true,heuristic=0.2"),
      ("TTL:5m,Sliding", "ttl:duration=300s,sliding=true"),
    ]
    for (short, long) in pairs {
      let a = try ExpiryModel(parsing: short)
      let b = try ExpiryModel(parsing: long)
      #expect(a == b, "\(short) vs \(long)")
      #expect(try ExpiryModel(parsing: a.description) == a)
    }
    #expect(try ExpiryModel(parsing: "ttl:300s,sliding").description == "ttl:5m,sliding")
    let sliding = try #require(try ExpiryModel(parsing: "ttl:1s,sliding").rule as? TTLExpiry)
    #expect(sliding.duration == 1_000_000 && sliding.sliding)
  }

  @Test func badSpecsNameTheSpecAndTheProblem() {
    let cases = [
      ("tll:300s", "unknown expiry rule 'tll'"), ("ttl:abc", "duration=abc is invalid"),
      ("http:heuristic=2", "heuristic=2 is invalid"), ("ttl:300s,slidin", "'slidin'"),
      ("none:x=1", "no parameter 'x'"),
    ]
    for (spec, fragment) in cases {
      do {
        _ = try ExpiryModel(parsing: spec)
        Issue.record("\(spec) parsed")
      } catch {
        #expect(error.message.hasPrefix("expiry '\(spec)': "), "\(error.message)")
        #expect(error.message.contains(fragment), "\(error.message)")
      }
    }
  }

  @Test func aRuleRegisteredFromOutsideIsAccepted() throws {
    struct Never: ExpiryRule {
      var name: String { "always-stale-test" }
      func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness { .expired }
    }
    try ExpiryModel.registry.register(
      ExpiryRuleEntry(name: "always-stale-test", summary: "every lookup finds the object expired") { _ in Never() })
    let model = try ExpiryModel(parsing: "always-stale-test")
    #expect(model.rule.name == "always-stale-test")
    #expect(throws: ConfigurationError.self) {
      try ExpiryModel.registry.register(ExpiryRuleEntry(name: "ttl", summary: "clash") { _ in Never() })
    }
  }
}
