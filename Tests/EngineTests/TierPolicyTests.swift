import CacheCore
import Engine
import Policies
import TestSupport
import Testing

/// Every registered policy as an engine tier (memory only, and memory spilling to a disk tier
/// of the same policy): after every request the tiers hold exactly the objects their policies
/// hold, with metadata, and the engine's counts add up. Registry-driven, so a new policy is
/// checked as a tier automatically.
@Suite struct TierPolicyTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names)
  func everyPolicyKeepsATierConsistent(name: String) throws {
    let requests = SyntheticTraces.requests(count: 1500, objects: 90, sizes: 1...400, seed: 17)
    let largest = requests.map(\.size).max() ?? 1
    for capacity in [2 * largest, 12 * largest] {
      for spills in [false, true] {
        let memory = try TierConfiguration(parsing: "\(name):\(capacity)")
        let disk = spills ? try TierConfiguration(parsing: "\(name):\(3 * capacity)") : nil
        let configuration = EngineConfiguration(
          name: "tier-\(name)", memory: memory, disk: disk, writePolicy: spills ? .writeOnEvict : .writeThrough)
        let engine = try CacheEngine(configuration, seed: 3)
        var failure: String?
        for (step, request) in requests.enumerated() where failure == nil {
          var attributes = RequestAttributes()
          attributes.version = 1
          try engine.process(request, attributes)
          do {
            try engine.checkInvariants()
          } catch {
            failure = "step \(step): \(error)"
          }
        }
        let stats = engine.stats
        if failure == nil, stats.requests != Int64(requests.count) || stats.hits > stats.requests {
          failure = "\(stats.requests) requests counted, \(stats.hits) hits"
        }
        #expect(
          failure == nil, "\(name) at \(capacity) \(spills ? "spilling to disk" : "memory only"): \(failure ?? "")")
      }
    }
  }
}
