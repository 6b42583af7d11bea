import CacheCore
import Engine
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// Engine tiers take sizes as `--sizes` does: `lru:0.1` is a tenth of the working set,
/// measured by the same pre-pass, and runs exactly as the absolute size it resolves to.
@Suite struct TierSizeTests {
  static let path = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  static func run(memory: String, disk: String? = nil) throws -> RunResult {
    let configuration = EngineConfiguration(
      name: "engine", memory: try TierConfiguration(parsing: memory),
      disk: try disk.map { try TierConfiguration(parsing: $0) })
    return try Replayer(
      RunConfiguration(
        tracePath: path, trace: try TraceSpec(parsing: "oracle-general"), policies: [], capacities: [],
        engines: [LabeledEngine(.custom, configuration: configuration)])
    ).run()
  }

  @Test func aFractionalTierRunsAsItsResolvedSize() throws {
    let fractional = try Self.run(memory: "lru:0.1", disk: "s3fifo:0.5")
    let summary = try #require(fractional.summary, "a fractional tier makes the replayer measure the trace")
    let memory = summary.workingSetBytes / 10
    let disk = summary.workingSetBytes / 2
    let engine = try #require(fractional.engines.first)
    #expect(engine.configuration.memory?.capacity == memory && engine.configuration.disk?.capacity == disk)
    #expect(engine.configuration.memory?.description == "lru:0.1", "reports keep the size as given")
    let absolute = try Self.run(memory: "lru:\(memory)", disk: "s3fifo:\(disk)")
    let expected = try #require(absolute.engines.first)
    #expect(engine.stats.hits == expected.stats.hits && engine.stats.memoryHits == expected.stats.memoryHits)
    #expect(engine.stats.diskHits == expected.stats.diskHits && engine.stats.hits > 0)
  }

  @Test func tierSizesParseAsCacheSizes() throws {
    #expect(try TierConfiguration(parsing: "lru:10%").fraction == 0.1)
    #expect(try TierConfiguration(parsing: "lru:64MiB").capacity == 64 << 20)
    #expect(try TierConfiguration(parsing: "lru:64MiB").fraction == nil)
    #expect(throws: ConfigurationError.self) { _ = try TierConfiguration(parsing: "lru:1.5") }
    #expect(throws: ConfigurationError.self) { _ = try TierConfiguration(parsing: "lru:0") }
  }
}
