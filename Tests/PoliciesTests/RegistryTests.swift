import CacheCore
import Policies
import Testing

@Suite struct RegistryTests {
  @Test func namesAreUniqueLowercaseAndDocumented() {
    var seen: Set<String> = []
    for entry in PolicyRegistry.all {
      let descriptor = entry.descriptor
      for name in [descriptor.name] + descriptor.aliases {
        #expect(name == name.lowercased(), "\(name) must be lowercase")
        #expect(!seen.contains(name), "\(name) registered twice")
        seen.insert(name)
      }
      #expect(!descriptor.summary.isEmpty && !descriptor.origin.isEmpty && !descriptor.memoryPerObject.isEmpty)
    }
  }

  @Test(arguments: PolicyRegistry.all.map(\.descriptor.name))
  func defaultsParseAndEveryParameterIsDocumented(name: String) throws {
    let entry = try PolicyRegistry.entry(named: name)
    let parameters = try entry.parseParameters()
    for spec in entry.descriptor.parameters {
      #expect(spec.normalize(spec.defaultValue) != nil, "\(name).\(spec.name) default is invalid")
      #expect(!spec.help.isEmpty)
      #expect(parameters.string(spec.name) == spec.normalize(spec.defaultValue))
    }
  }

  @Test func unknownPolicyListsTheKnownOnes() {
    #expect {
      _ = try PolicyRegistry.entry(named: "nope")
    } throws: { error in
      let message = (error as? ConfigurationError)?.message ?? ""
      return message.contains("unknown policy 'nope'") && message.contains("lru") && message.contains("sieve")
    }
  }

  @Test func unknownParameterListsTheKnownOnes() {
    #expect {
      _ = try PolicySpec(parsing: "clock:size=3")
    } throws: { error in
      let message = (error as? ConfigurationError)?.message ?? ""
      return message.contains("clock has no parameter 'size'") && message.contains("bits")
    }
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec(parsing: "lru:bits=1") }
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec(parsing: "clock:bits=9") }
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec(parsing: "clock:bits") }
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec(parsing: "clock:bits=1,bits=2") }
  }

  @Test func listsSplitPoliciesAndKeepParameterContinuations() throws {
    let specs = try PolicySpec.parseList("lru, clock:bits=2 ,sieve,FIFO")
    #expect(specs.map(\.name) == ["lru", "clock", "sieve", "fifo"])
    #expect(specs[1].parameters.integer("bits") == 2)
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec.parseList("lru,,fifo") }
    // A repeated key, even through an alias, is an error.
    #expect(throws: ConfigurationError.self) { _ = try PolicySpec.parseList("clock:bits=2,n-bit-counter=3") }
    let aliased = try PolicySpec.parseList("clock:n-bit-counter=3")
    #expect(aliased[0].parameters.integer("bits") == 3)
    #expect(aliased[0].description == "clock:bits=3")
  }

  @Test func aliasesSelectThePolicy() throws {
    #expect(try PolicySpec(parsing: "second-chance").name == "clock")
    #expect(try PolicySpec(parsing: "SIEVE").name == "sieve")
  }
}
