import Benchmark
import CacheCore
import Engine
import Foundation
import Policies
import Traces

// CacheLab's hot paths, each measured per request on data built before the measured loop.
// Every iteration handles exactly `benchmark.scaledIterations.count` requests (1 M; the
// engine 1 000), so wall clock is shown per request and throughput in requests per second.
// Run with `bash Scripts/bench.sh`; thresholds live in `Benchmarks/Thresholds/`.

/// Policies replayed by the `Replay_<policy>` benchmarks.
private let replayedPolicies = ["lru", "fifo", "sieve", "s3fifo", "arc", "wtinylfu"]

/// The preset driven by the engine benchmark, its memory limited to ~10 % of the working set
/// (the disk tier is unlimited, as in SDWebImage without events).
private let enginePreset = "sdwebimage:max-memory=320MiB"

/// Tolerances for `swift package benchmark thresholds check`, which compares each metric's
/// p90 with the committed one and fails on a deviation either way. Wall clock gets a wide
/// relative band: the machines are noisy (±25 %, more while something else runs), and the
/// band still catches a 2× slowdown. Throughput is wider still because the tool writes its
/// fast-side p90 but checks its slow side (p10), so the two differ by the spread (up to
/// ~20 % for the engine). Allocations get an absolute band that any per-request allocation
/// (≥ 1 000 per iteration) exceeds.
private var tolerances: [BenchmarkMetric: BenchmarkThresholds] {
  [
    .wallClock: BenchmarkThresholds(relative: [.p90: 50]),
    .throughput: BenchmarkThresholds(relative: [.p90: 60]),
    .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 100]),
  ]
}

/// A plain policy run, as the replayer runs it (an engine built as
/// `EngineConfiguration.policyRun`), warmed on the stream it replays.
private final class ReplayState {
  let engine: CacheEngine
  let batches: [RequestBatch]

  init(policy: String) throws {
    let spec = try PolicySpec(parsing: policy)
    engine = try CacheEngine(
      .policyRun(TierConfiguration(policy: spec, capacity: Workload.replayCapacity)), rowsCarryAttributes: false)
    batches = Workload.replayBatches
    // Two passes: the cache fills and its storage (ghosts included) grows to its peak.
    for _ in 0..<2 { try replayAll() }
  }

  func replayAll() throws {
    for batch in batches { try engine.replay(batch, range: 0..<batch.count) }
  }
}

/// An oracle-general file of the sized stream in a temporary directory.
private final class DecodeState {
  /// The directory holding the file, removed by the benchmark's teardown.
  static let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("cachelab-bench-\(ProcessInfo.processInfo.processIdentifier)")
  let path = DecodeState.directory.appendingPathComponent("zipf.oracleGeneral.bin").path
  let spec: TraceSpec
  let batch = RequestBatch()

  init() throws {
    try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
    let writer = try OracleGeneralWriter(path: path, computeNextAccess: true)
    for request in Workload.sizedRequests { try writer.write(request) }
    try writer.commit()
    spec = try TraceSpec(parsing: "oracle-general")
    // One read brings the file into the page cache and sizes the reader's buffers.
    _ = try readAll(try spec.open(path))
  }

  /// Reads every batch of `reader`; returns the number of requests.
  func readAll(_ reader: any TraceReader) throws -> Int {
    var count = 0
    while try reader.read(into: batch) { count += batch.count }
    return count
  }

  static func removeFiles() {
    try? FileManager.default.removeItem(at: directory)
  }
}

/// A memory-only LRU engine with the replay benchmarks' cache (10 000 objects, object mode),
/// warmed on their stream and fed it in order: `Engine_memory_lru` against `Replay_lru` is the
/// engine path's cost over the policy path's.
private final class MemoryEngineState {
  let engine: CacheEngine
  let requests = Workload.replayRequests
  let attributes = RequestAttributes()

  init() throws {
    let memory = try TierConfiguration(parsing: "lru:\(Workload.replayCapacity)objects")
    engine = try CacheEngine(EngineConfiguration(name: "engine", memory: memory))
    for _ in 0..<2 { try replayAll() }
  }

  func replayAll() throws {
    for request in requests { try engine.process(request, attributes) }
  }
}

/// The same memory-only LRU engine (capacity in bytes; every size is 1) built for rows
/// without attributes, so that it serves them through the policy's own loop, fed the replay
/// benchmarks' batches: `Engine_memory_lru_policy_loop` against `Replay_lru`.
private final class PolicyLoopEngineState {
  let engine: CacheEngine
  let batches = Workload.replayBatches

  init() throws {
    let memory = try TierConfiguration(parsing: "lru:\(Workload.replayCapacity)")
    engine = try CacheEngine(EngineConfiguration(name: "engine", memory: memory), rowsCarryAttributes: false)
    precondition(engine.throughPolicyLoop, "the memory-only LRU engine should serve through the policy loop")
    for _ in 0..<2 { try replayAll() }
  }

  func replayAll() throws {
    for batch in batches {
      try batch.withRequests { (requests) throws(EngineError) in try engine.replay(requests, range: 0..<batch.count) }
    }
  }
}

/// A preset engine warmed on the sized stream, then fed the stream in order, over and over;
/// each pass shifts trace time forward so time never goes back.
private final class EngineState {
  let engine: CacheEngine
  let requests = Workload.sizedRequests
  let attributes = RequestAttributes()
  /// Trace time covered by one pass, plus a second.
  let passSpan: Int64
  var cursor = 0
  var offset: Int64 = 0

  init(preset: String) throws {
    engine = try CacheEngine(PresetSpec(parsing: preset).configuration)
    passSpan = (requests.last?.time ?? 0) + microsecondsPerSecond
    try process(2 * requests.count)
  }

  /// Processes the next `count` requests of the stream.
  func process(_ count: Int) throws {
    for _ in 0..<count {
      var request = requests[cursor]
      request.time += offset
      try engine.process(request, attributes)
      cursor += 1
      if cursor == requests.count {
        cursor = 0
        offset += passSpan
      }
    }
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    warmupIterations: 1,
    scalingFactor: .mega,
    maxDuration: .seconds(2),
    maxIterations: 1_000,
    thresholds: tolerances
  )

  for policy in replayedPolicies {
    Benchmark("Replay_\(policy)") { benchmark, state in
      precondition(state.batches.reduce(0) { $0 + $1.count } == benchmark.scaledIterations.count)
      try state.replayAll()
      blackHole(state.engine.missCounts)
    } setup: {
      try ReplayState(policy: policy)
    }
  }

  Benchmark("Decode_oracle_general") { benchmark, state in
    let reader = try state.spec.open(state.path)
    benchmark.startMeasurement()
    let count = try state.readAll(reader)
    benchmark.stopMeasurement()
    precondition(count == benchmark.scaledIterations.count)
  } setup: {
    try DecodeState()
  } teardown: {
    DecodeState.removeFiles()
  }

  Benchmark("Engine_memory_lru") { benchmark, state in
    precondition(state.requests.count == benchmark.scaledIterations.count)
    try state.replayAll()
    blackHole(state.engine.stats.hits)
  } setup: {
    try MemoryEngineState()
  }

  Benchmark("Engine_memory_lru_policy_loop") { benchmark, state in
    precondition(state.batches.reduce(0) { $0 + $1.count } == benchmark.scaledIterations.count)
    try state.replayAll()
    blackHole(state.engine.stats.hits)
  } setup: {
    try PolicyLoopEngineState()
  }

  // About 1 µs per request: 1 000 requests per iteration give enough samples.
  Benchmark(
    "Engine_preset_sdwebimage",
    configuration: .init(scalingFactor: .kilo, maxIterations: 5_000)
  ) { benchmark, state in
    try state.process(benchmark.scaledIterations.count)
  } setup: {
    try EngineState(preset: enginePreset)
  }
}
