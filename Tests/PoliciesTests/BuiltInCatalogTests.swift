import CacheCore
import Policies
import Testing

/// CacheCore's registries find the built-in policies of the linked Policies module by
/// themselves, in BuiltInPolicies' order, and explain an empty registry.
@Suite struct BuiltInCatalogTests {
  @Test func registriesStartWithTheBuiltIns() {
    let policies = BuiltInPolicies.policies.map(\.descriptor.name)
    #expect(policies.count > 40)
    #expect(Array(PolicyRegistry.all.prefix(policies.count).map(\.descriptor.name)) == policies)
    let admissions = BuiltInPolicies.admissions.map(\.descriptor.name)
    #expect(Array(AdmissionRegistry.all.prefix(admissions.count).map(\.descriptor.name)) == admissions)
    #expect((try? PolicySpec(parsing: "LRU"))?.entry.descriptor.name == "lru")
  }

  @Test func anEmptyRegistrySaysWhy() {
    let empty = Registry<PolicyEntry>(kind: "policy", plural: "policies", [], emptyNote: "nothing is linked")
    #expect(throws: ConfigurationError.self) { try empty.named("lru") }
    do {
      _ = try empty.named("lru")
    } catch {
      #expect(error.description.contains("unknown policy 'lru': nothing is linked"))
    }
  }
}
