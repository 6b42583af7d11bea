import CacheCore
import Engine
import Policies
import TestSupport
import Testing

/// A memory-only engine (generic rules, no expiry) over any registered policy counts exactly
/// the hits and misses the plain policy run counts on the same requests: the engine's tier
/// serves a miss as the policy's own miss (a ghost entry counts), not as a store, which drops
/// ghost entries (before 2026-11-26 a `2q` engine hit 0.29 of a Zipf trace where the policy
/// hit 0.42). Registry-driven, so a new policy is checked automatically.
@Suite struct EnginePolicyAgreementTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names)
  func memoryOnlyEngineCountsAsThePolicy(name: String) throws {
    let requests = SyntheticTraces.requests(count: 4000, objects: 150, sizes: 1...400, seed: 41)
    let largest = requests.map(\.size).max() ?? 1
    for capacity in [3 * largest, 15 * largest] {
      let spec = try PolicySpec(parsing: name)
      let simulation = try spec.entry.makeSimulation(
        capacity: capacity, parameters: spec.parameters, context: PolicyContext(seed: 3), admission: nil)
      let batch = RequestBatch(capacity: requests.count)
      batch.refill { buffer in
        for (index, request) in requests.enumerated() { buffer[index] = request }
        return requests.count
      }
      simulation.replay(batch, range: 0..<requests.count)

      let memory = try TierConfiguration(parsing: "\(name):\(capacity)")
      let engine = try CacheEngine(EngineConfiguration(name: "memory-\(name)", memory: memory), seed: 3)
      for request in requests { try engine.process(request, RequestAttributes()) }

      #expect(
        engine.stats.misses == simulation.counters.misses,
        "\(name) at \(capacity): the engine missed \(engine.stats.misses), the policy \(simulation.counters.misses)")
      #expect(engine.stats.memoryEvictions == simulation.counters.evictions, "\(name) at \(capacity): evictions")
    }
  }
}
