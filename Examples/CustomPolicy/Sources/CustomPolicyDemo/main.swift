import CacheCore
import Engine
import Foundation
import Policies
import Replay
import Reports
import Traces

// Registers a policy and a preset CacheLab does not ship, then replays a trace through them
// and through built-in ones with CacheLab's own replayer, and prints CacheLab's table and CSV.
// Usage: CustomPolicyDemo [TRACE] (default: the repository's Traces/zipf-demo.oracleGeneral.bin)
// Exits 1 with a message when a check fails, so CI can run it as a test.

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("CustomPolicyDemo: \(message)\n".utf8))
  exit(1)
}

do {
  try PolicyRegistry.register(PolicyEntry(MidpointLRU.self))
  try EnginePreset.register(EnginePreset.imageFeed())

  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..")
  let trace =
    CommandLine.arguments.dropFirst().first
    ?? root.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").standardizedFileURL.path
  var configuration = RunConfiguration(
    tracePath: trace, trace: try TraceSpec(format: nil, inferringFrom: trace),
    policies: try PolicySpec.parseList("lru,midpoint-lru,midpoint-lru:old=0.2,s3fifo"),
    capacities: try CapacitySpec.parseList("0.01,0.1", objectMode: false),
    engines: [
      LabeledEngine(
        .preset("image-feed"), configuration: try PresetSpec(parsing: "image-feed:memory=4MiB").configuration)
    ])
  configuration.verifyInvariants = true
  let result = try Replayer(configuration).run()

  print(TableReport.render(result), terminator: "")
  print(CSVReport.render([result]), terminator: "")

  // Checks: the custom policy ran, kept its invariants (verifyInvariants), and behaves as
  // midpoint insertion should: never more misses than requests, and different from LRU.
  let rows = result.caches.filter { $0.name == "midpoint-lru" }
  guard rows.count == 4, let lru = result.caches.first(where: { $0.name == "lru" }) else {
    fail("expected 4 midpoint-lru caches and an lru one, got \(result.caches.map(\.label))")
  }
  guard rows.allSatisfy({ $0.requests == lru.requests && $0.counters.misses <= $0.requests }) else {
    fail("midpoint-lru counted other requests than lru")
  }
  guard rows[0].counters.misses != lru.counters.misses else {
    fail("midpoint-lru at \(lru.capacityDescription) missed exactly as often as lru: the policy did not run")
  }
  guard let engine = result.engines.first, engine.stats.requests > 0, engine.stats.hits > 0 else {
    fail("the image-feed preset replayed nothing or never hit")
  }
  print("custom policy and preset: ok")
} catch {
  fail("\(error)")
}
