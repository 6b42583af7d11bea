import CacheCore
import Engine

/// The outcome for one cache of a run, whatever it was: a policy at a capacity (an engine
/// that is a plain policy run, `EngineConfiguration.policyRun(_:timeToLive:)`) or a
/// configured engine. Reports read every row through it; what a figure means for each kind
/// is stated here, once.
public struct CacheResult: Sendable {
  /// The policy's name, or the engine's label (`preset:NAME`, `engine`).
  public let name: String
  /// How tables name the row: the policy's label with its admission (`lru+bloom-filter`), or
  /// the engine's label.
  public let label: String
  /// Every parameter: the policy's (`k=v;k=v`), or the engine's tiers and rules.
  public let parameterSummary: String
  /// The engine that ran (a policy run's is its one tier).
  public let configuration: EngineConfiguration
  /// The size as given (`0.1`, `64MiB`), or the engine's tiers.
  public let capacityDescription: String
  /// Whether the size was given relative to the working set (tables show it beside the bytes).
  public let capacityIsRelative: Bool
  /// The capacity (bytes, or objects in object mode; an engine's first tier), nil if unlimited.
  public let capacityLimit: Int64?
  /// The admission policy in front of a policy run (`name:k=v;k=v`), empty when there is
  /// none; an engine's tiers name theirs in ``parameterSummary``.
  public let admission: String
  /// Whether a policy involved draws random numbers.
  public let isRandomized: Bool
  /// Counters over the counted (post-warm-up) requests; a sampled policy run's are scaled to
  /// the whole trace.
  public let stats: EngineStats
  /// Objects held at the end of the run.
  public let memoryObjects: Int
  public let diskObjects: Int
  /// Bytes a policy run's own structures held at the end (`CacheSimulation.storageBytes`);
  /// nil for engines, where they are not accounted.
  public let structureBytes: Int64?
  /// Seconds this cache spent replaying (policy and engine work, excluding trace reading).
  public let replaySeconds: Double
  /// Index in the run's grid (``RunConfiguration/gridSize``).
  public let cell: Int
  /// The spatial sampling rate this cache was simulated at: the run's rate, or a higher one
  /// when the floor on sampled objects raised a policy run's (1: not sampled).
  public let sampleRate: Double

  /// Whether this is a plain policy run (no latency, origin or disk model).
  public var isPolicyRun: Bool { configuration.policyRun != nil }
  /// Counted requests and their bytes.
  public var requests: Int64 { stats.requests }
  public var requestBytes: Int64 { stats.requestBytes }
  /// Counted requests that hit (were answered from a tier), and that missed.
  public var hits: Int64 { stats.hits }
  public var misses: Int64 { stats.misses }
  public var missBytes: Int64 { stats.missBytes }
  /// Objects evicted (an engine's from both tiers).
  public var evictions: Int64 { stats.memoryEvictions + stats.diskEvictions }
  /// Misses a policy run did not insert; nil for engines, where the notion does not apply.
  public var rejections: Int64? { isPolicyRun ? stats.rejected : nil }
  /// Objects a policy run's admission policy refused (misses and puts); nil without one.
  public var declined: Int64? { isPolicyRun && !admission.isEmpty ? stats.declined : nil }
  /// Lookups that found an expired or stale object; nil when nothing could expire (a policy
  /// run without `--ttl`).
  public var expiredLookups: Int64? {
    if let run = configuration.policyRun, run.timeToLive == nil { return nil }
    return stats.expired
  }
  /// A policy run's policy with its parameters and admission; nil for engines.
  public var policy: PolicySpec? { isPolicyRun ? configuration.memory?.policy : nil }
  /// The counters as a plain policy run reports them (libCacheSim's): requests, misses and
  /// their bytes, evictions, rejections, expiries and admission refusals. O(1).
  public var counters: MissCounters {
    var counters = MissCounters()
    counters.requests = stats.requests
    counters.requestBytes = stats.requestBytes
    counters.misses = stats.misses
    counters.missBytes = stats.missBytes
    counters.evictions = evictions
    counters.rejected = stats.rejected
    counters.expired = stats.expired
    counters.declined = stats.declined
    return counters
  }
  /// Fraction of counted requests that hit (0 when nothing was counted).
  public var hitRatio: Double { requests > 0 ? Double(hits) / Double(requests) : 0 }
  /// Fraction of counted bytes served from the cache.
  public var byteHitRatio: Double {
    requestBytes > 0 ? Double(requestBytes - missBytes) / Double(requestBytes) : 0
  }
  /// Requests replayed (including warm-up) per second of this cache's replay time.
  public func requestsPerSecond(replayed: Int64) -> Double {
    replaySeconds > 0 ? Double(replayed) / replaySeconds : 0
  }
}

/// The outcome of a whole run.
public struct RunResult: Sendable {
  /// What was run.
  public internal(set) var configuration: RunConfiguration
  /// Whole-trace totals, when a pre-pass was made (fraction sizes or warm-up).
  public let summary: TraceSummary?
  /// All rows replayed (requests and put, delete, event and origin rows), warm-up included.
  public let replayedRequests: Int64
  /// Rows that are not get requests (puts, deletes, lifecycle events, origin updates).
  public let otherRows: Int64
  /// Requests that only warmed the caches.
  public let warmupRequests: Int64
  /// Every cache: one policy run per (policy, capacity), policies outer, capacities inner,
  /// then one entry per engine, in configuration order.
  public let caches: [CacheResult]
  /// Wall-clock seconds of the main pass (reading and replaying).
  public let wallSeconds: Double
  /// The process's peak resident memory when the run ended (getrusage `ru_maxrss`), in bytes.
  public var peakMemoryBytes: Int64 = 0
  /// Per-window counts when a window was configured; `hits` are in cache order (``caches``).
  public let windows: [WindowRecord]
  /// What reading the trace changed or left out (HTTP logs and captures: records skipped,
  /// sizes taken from another response, order repaired); nil when nothing was.
  public var traceNotes: String?
  /// What the trace's records say the real caches did (HTTP logs and captures).
  public var observed = ObservedTraffic()
  /// How the LRU curves were made (`lru at 100 sizes by one stack-distance pass; ...`), or
  /// nil when no LRU ran at enough sizes for it to matter (``ReplayMethod``).
  public var methodNote: String?

  /// Hit ratios of cache `index` (in ``caches``) per window.
  public func windowHitRatios(_ index: Int) -> [Double] { windows.map { $0.hitRatio(index) } }

  /// The policy runs of ``caches`` (they come first).
  public var policyRuns: ArraySlice<CacheResult> { caches.prefix { $0.isPolicyRun } }
  /// The configured engines of ``caches`` (after the policy runs).
  public var engines: ArraySlice<CacheResult> { caches.drop { $0.isPolicyRun } }
}

extension CacheResult {
  /// The result of the policy run `engine` of `policy` at `capacitySpec`, with its counters
  /// `stats` (scaled when sampled).
  init(
    policyRun engine: CacheEngine, stats: EngineStats, policy: PolicySpec, capacitySpec: CapacitySpec, capacity: Int64,
    seconds: Double, cell: Int, sampleRate: Double
  ) {
    self.init(
      policyRun: engine.configuration, policy: policy, capacity: capacity, stats: stats,
      memoryObjects: engine.memoryObjects, structureBytes: engine.structureBytes, capacitySpec: capacitySpec,
      seconds: seconds, cell: cell, sampleRate: sampleRate)
  }

  /// The result of the policy run `configuration` of `policy` at `capacity`, with the counters,
  /// objects held and structure bytes it had (a simulation's, or one stack pass's for many sizes).
  init(
    policyRun configuration: EngineConfiguration, policy: PolicySpec, capacity: Int64, stats: EngineStats,
    memoryObjects: Int, structureBytes: Int64, capacitySpec: CapacitySpec, seconds: Double, cell: Int,
    sampleRate: Double
  ) {
    name = policy.name
    label = policy.label
    // `k=v;k=v`: semicolons, so that the list stays one cell in a CSV.
    parameterSummary = String(policy.parameters.description.map { $0 == "," ? ";" : $0 })
    self.configuration = configuration
    capacityDescription = capacitySpec.description
    capacityIsRelative = capacitySpec.needsWorkingSet
    capacityLimit = capacity
    admission = policy.admission?.csvValue ?? ""
    isRandomized = policy.entry.descriptor.isRandomized
    self.stats = stats
    self.memoryObjects = memoryObjects
    diskObjects = 0
    self.structureBytes = structureBytes
    replaySeconds = seconds
    self.cell = cell
    self.sampleRate = sampleRate
  }

  /// The result of `engine`, configured as `configuration` and shown as `label`.
  init(
    _ engine: CacheEngine, label: String, configuration: EngineConfiguration, seconds: Double, cell: Int,
    sampleRate: Double
  ) {
    let tiers = [configuration.memory, configuration.disk].compactMap { $0 }
    name = label
    self.label = label
    parameterSummary = configuration.summary
    self.configuration = configuration
    capacityDescription = tiers.map(\.description).joined(separator: " + ")
    capacityIsRelative = false
    capacityLimit = tiers.first.flatMap { $0.capacity == .max ? nil : $0.capacity }
    admission = ""
    isRandomized = tiers.contains { $0.policy.entry.descriptor.isRandomized }
    stats = engine.stats
    memoryObjects = engine.memoryObjects
    diskObjects = engine.diskObjects
    structureBytes = nil
    replaySeconds = seconds
    self.cell = cell
    self.sampleRate = sampleRate
  }
}
