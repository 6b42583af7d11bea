import CacheCore
import Engine
import Policies
import TestSupport
import Testing

/// Every registered policy as an engine tier (memory only, and memory spilling to a disk tier
/// of the same policy): after every request the tiers hold exactly the objects their policies
/// hold, with metadata, and the engine's counts add up; every 25 requests each held object's
/// metadata is its own (its size, the trace's version, dates in order, not a placeholder),
/// whichever way it was stored (built in place on a miss, spilled, replaced). Registry-driven,
/// so a new policy is checked as a tier automatically.
@Suite struct TierPolicyTests {
  static let names = PolicyRegistry.all.map(\.descriptor.name)

  @Test(arguments: names)
  func everyPolicyKeepsATierConsistent(name: String) throws {
    let requests = SyntheticTraces.requests(count: 1500, objects: 90, sizes: 1...400, seed: 17)
    let largest = requests.map(\.size).max() ?? 1
    let sizes = Dictionary(requests.map { ($0.key, $0.size) }, uniquingKeysWith: { first, _ in first })
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
          if failure == nil, step % 25 == 24 {
            failure = Self.wrongMetadata(engine, sizes: sizes, now: request.time).map { "step \(step): \($0)" }
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

  /// What is wrong with the metadata either tier holds for the trace's keys, if anything.
  static func wrongMetadata(_ engine: CacheEngine, sizes: [UInt64: Int64], now: Int64) -> String? {
    for (key, size) in sizes {
      for (tier, metadata) in [("memory", engine.memoryMetadata(key)), ("disk", engine.diskMetadata(key))] {
        guard let metadata else { continue }
        guard metadata.size == size, metadata.cost == size, metadata.version == 1,
          metadata.createdAt <= metadata.accessedAt, metadata.accessedAt <= now
        else { return "\(tier) metadata of \(key) (size \(size)) is \(metadata)" }
      }
    }
    return nil
  }
}
