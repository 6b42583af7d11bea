import CacheCore
import Engine
import Policies

/// The outcome for one (policy, capacity) cache of a run.
public struct CacheResult: Sendable {
  /// The policy with all its parameters.
  public let policy: PolicySpec
  /// The size as requested (`0.1`, `64MiB`).
  public let capacitySpec: CapacitySpec
  /// The resolved capacity in bytes (objects in object mode).
  public let capacity: Int64
  /// Counted (post-warm-up) requests and their bytes.
  public let requests: Int64
  public let requestBytes: Int64
  /// Misses, miss bytes, evictions and rejections over the counted requests.
  public let counters: MissCounters
  /// Seconds this cache spent replaying (policy and engine work, excluding trace reading).
  public let replaySeconds: Double
  /// Index in the run's grid (``RunConfiguration/gridSize``).
  public let cell: Int
  /// Bytes the cache's own structures held at the end (`CacheSimulation.storageBytes`).
  public let storageBytes: Int64
  /// The spatial sampling rate this cache was simulated at: the run's rate, or a higher one
  /// when the floor on sampled objects raised it (1: not sampled).
  public var sampleRate: Double = 1

  /// Counted requests that hit.
  public var hits: Int64 { requests - counters.misses }
  /// Fraction of counted requests that hit (0 when nothing was counted).
  public var hitRatio: Double { requests > 0 ? Double(hits) / Double(requests) : 0 }
  /// Fraction of counted bytes served from the cache.
  public var byteHitRatio: Double {
    requestBytes > 0 ? Double(requestBytes - counters.missBytes) / Double(requestBytes) : 0
  }
  /// Requests replayed (including warm-up) per second of this cache's replay time.
  public func requestsPerSecond(replayed: Int64) -> Double {
    replaySeconds > 0 ? Double(replayed) / replaySeconds : 0
  }
}

/// The outcome for one cache engine of a run.
public struct EngineResult: Sendable {
  /// Name in reports (`preset:NAME` or `engine`).
  public let label: String
  public let configuration: EngineConfiguration
  /// Counters over the counted (post-warm-up) requests.
  public let stats: EngineStats
  /// Objects held at the end of the run.
  public let memoryObjects: Int
  public let diskObjects: Int
  /// Seconds this engine spent replaying.
  public let replaySeconds: Double
  /// Index in the run's grid (``RunConfiguration/gridSize``).
  public let cell: Int

  /// Fraction of counted requests answered from a tier.
  public var hitRatio: Double { stats.requests > 0 ? Double(stats.hits) / Double(stats.requests) : 0 }
  /// Fraction of counted bytes answered from a tier.
  public var byteHitRatio: Double {
    stats.requestBytes > 0 ? Double(stats.hitBytes) / Double(stats.requestBytes) : 0
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
  /// One entry per (policy, capacity), policies outer, capacities inner.
  public let caches: [CacheResult]
  /// One entry per engine, in configuration order.
  public let engines: [EngineResult]
  /// Wall-clock seconds of the main pass (reading and replaying).
  public let wallSeconds: Double
  /// The process's peak resident memory when the run ended (getrusage `ru_maxrss`), in bytes.
  public var peakMemoryBytes: Int64 = 0
  /// Per-window counts when a window was configured; `hits` are in cache order (``caches``,
  /// then ``engines``).
  public let windows: [WindowRecord]

  /// Hit ratios of cache `index` (``caches`` first, then ``engines``) per window.
  public func windowHitRatios(_ index: Int) -> [Double] { windows.map { $0.hitRatio(index) } }
}
