import CacheCore
import Engine
import Traces

/// A cache engine to replay, with the name it has in reports.
public struct LabeledEngine: Sendable {
  /// A preset or the custom engine.
  public var kind: EngineLabel
  public var configuration: EngineConfiguration

  /// `preset:NAME[:params]` or `engine`, as results and reports name the engine.
  public var label: String { kind.description }

  public init(_ kind: EngineLabel, configuration: EngineConfiguration) {
    self.kind = kind
    self.configuration = configuration
  }
}

/// Everything that defines one replay run; together with the trace file it determines
/// every count in the results.
public struct RunConfiguration: Sendable {
  /// The trace file.
  public var tracePath: String
  /// Its format and format parameters.
  public var trace: TraceSpec
  /// The policies to simulate, each at every capacity.
  public var policies: [PolicySpec]
  /// The cache sizes.
  public var capacities: [CapacitySpec]
  /// Whole cache engines (presets or custom tiers) replayed in the same pass.
  public var engines: [LabeledEngine]
  /// Object mode: every object has size 1 and capacities count objects.
  public var ignoreSize: Bool
  /// Requests that warm the caches without being counted.
  public var warmup: WarmupSpec
  /// Seed for randomised policies.
  public var seed: UInt64
  /// Replay the caches of a batch on all cores (otherwise on the calling thread).
  public var parallel: Bool
  /// Run every policy's self-check at the end of the run.
  public var verifyInvariants: Bool
  /// Requests per batch (memory: 40 bytes each).
  public var batchSize: Int
  /// Per-window hit ratios (nil: none).
  public var window: WindowSpec?
  /// The part of the grid to run (nil: all of it).
  public var shard: Shard?
  /// The file to read when it is not ``tracePath`` (a synthetic trace generated for this run).
  public var readPath: String?
  /// The part of the trace replayed: `--num-req` and `--sample` (whole by default).
  public var slice = TraceSlice()
  /// `--ttl`: policy caches expire objects by this rule (nil: never; engines keep their own rules).
  public var timeToLive: TimeToLive?
  /// How LRU curves are made: one stack-distance pass or one simulation per size (the rows
  /// are the same either way).
  public var method = ReplayMethod.automatic

  public init(
    tracePath: String, trace: TraceSpec, policies: [PolicySpec], capacities: [CapacitySpec],
    engines: [LabeledEngine] = [], ignoreSize: Bool = false, warmup: WarmupSpec = .none, seed: UInt64 = 0,
    parallel: Bool = true, verifyInvariants: Bool = false, batchSize: Int = 1 << 16, window: WindowSpec? = nil,
    shard: Shard? = nil
  ) {
    self.tracePath = tracePath
    self.trace = trace
    self.policies = policies
    self.capacities = capacities
    self.engines = engines
    self.ignoreSize = ignoreSize
    self.warmup = warmup
    self.seed = seed
    self.parallel = parallel
    self.verifyInvariants = verifyInvariants
    self.batchSize = batchSize
    self.window = window
    self.shard = shard
  }

  /// Cells of the full grid: one per (policy, size), policies outer, then one per engine.
  public var gridSize: Int { policies.count * capacities.count + engines.count }

  /// Whether results depend on trace time running forward: time warm-up or windows, `--ttl`,
  /// engines (expiry, timers, ages).
  public var dependsOnTime: Bool {
    if case .traceTime = warmup { return true }
    if case .traceTime? = window { return true }
    return timeToLive != nil || !engines.isEmpty
  }

  /// The whole grid in words: `policies @ sizes`, then `+ engines` (labels as tables show
  /// them), so reports of one sweep's shards can be told from those of another.
  public var gridDescription: String {
    var parts: [String] = []
    if !policies.isEmpty {
      parts.append(
        policies.map(\.label).joined(separator: " ") + " @ " + capacities.map(\.description).joined(separator: " "))
    }
    if !engines.isEmpty { parts.append(engines.map(\.label).joined(separator: " ")) }
    return parts.joined(separator: " + ")
  }

  /// Whether grid cell `cell` is replayed by this run (its shard's part of the grid).
  public func runs(cell: Int) -> Bool { shard?.contains(cell) ?? true }
}
