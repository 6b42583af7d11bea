import CacheCore
import Engine
import Replay
import Stats

/// One row of a report: a (policy, capacity) cache or a whole engine of a run.
public struct ReportRow: Sendable {
  /// What the row describes.
  public enum Subject: Sendable {
    case cache(CacheResult)
    case engine(EngineResult)
  }

  public let run: RunResult
  public let subject: Subject
  /// Position of the row's cache in the run (``RunResult/caches``, then ``RunResult/engines``).
  public let index: Int

  /// Every row of `runs`, caches first, then engines, in run order.
  public static func rows(_ runs: [RunResult]) -> [ReportRow] {
    runs.flatMap { run in
      run.caches.enumerated().map { ReportRow(run: run, subject: .cache($1), index: $0) }
        + run.engines.enumerated().map { ReportRow(run: run, subject: .engine($1), index: run.caches.count + $0) }
    }
  }

  /// The row's cell in the run's full (policy × size, then engines) grid, shards included.
  public var cell: Int {
    switch subject {
    case .cache(let cache): return cache.cell
    case .engine(let engine): return engine.cell
    }
  }

  /// The numerators and denominators of `metric` in the run's windows that count in the
  /// statistics (a last partial window, and windows with a zero denominator, left out), and
  /// how many windows were left out; nil when the metric has no per-window values. O(windows).
  public func windowParts(_ metric: Metric) -> (numerators: [Double], denominators: [Double], excluded: Int)? {
    guard let window = metric.window else { return nil }
    let parts = run.windows.filter { !$0.isPartial }.map { window($0, index) }.filter { $0.1 > 0 }
    return (parts.map(\.0), parts.map(\.1), run.windows.count - parts.count)
  }

  /// The request-weighted hit ratio over the run's windows (a last partial window left out),
  /// with its batch-means interval; nil without windows or when no window is complete.
  public var windowedHitRatio: WindowedRatio? {
    guard let parts = windowParts(.hitRatio), !parts.numerators.isEmpty else { return nil }
    return WindowedRatio(numerators: parts.numerators, denominators: parts.denominators)
  }

  /// The engine's counters, for engine rows.
  public var engine: EngineResult? {
    if case .engine(let result) = subject { return result }
    return nil
  }

  /// Whether the row's policy (or an engine tier's policy) draws random numbers.
  public var isRandomized: Bool {
    switch subject {
    case .cache(let cache): return cache.policy.entry.descriptor.isRandomized
    case .engine(let engine):
      return [engine.configuration.memory, engine.configuration.disk].contains {
        $0?.policy.entry.descriptor.isRandomized == true
      }
    }
  }

  public var policyName: String {
    switch subject {
    case .cache(let cache): return cache.policy.name
    case .engine(let engine): return engine.label
    }
  }

  /// Parameters in full: the policy's, or the engine's tiers and rules.
  public var parameters: String {
    switch subject {
    case .cache(let cache): return cache.policy.parameters.description.replacingCommas()
    case .engine(let engine): return engine.configuration.summary
    }
  }

  /// The sampling rate the row was simulated at (a cache's own, raised by the floor; an
  /// engine's is the run's).
  var cacheSampleRate: Double {
    switch subject {
    case .cache(let cache): return cache.sampleRate
    case .engine: return run.configuration.slice.sampleRate
    }
  }

  /// Capacity of the cache, or of the engine's first tier ("" if unlimited).
  public var capacity: String {
    switch subject {
    case .cache(let cache): return String(cache.capacity)
    case .engine(let engine):
      guard let tier = engine.configuration.memory ?? engine.configuration.disk, tier.capacity != .max else {
        return ""
      }
      return String(tier.capacity)
    }
  }

  public var capacitySpec: String {
    switch subject {
    case .cache(let cache): return cache.capacitySpec.description
    case .engine(let engine):
      return [engine.configuration.memory, engine.configuration.disk].compactMap { $0?.description }.joined(
        separator: " + ")
    }
  }

  public var requests: Int64 {
    switch subject {
    case .cache(let cache): return cache.requests
    case .engine(let engine): return engine.stats.requests
    }
  }

  public var requestBytes: Int64 {
    switch subject {
    case .cache(let cache): return cache.requestBytes
    case .engine(let engine): return engine.stats.requestBytes
    }
  }

  public var misses: Int64 {
    switch subject {
    case .cache(let cache): return cache.counters.misses
    case .engine(let engine): return engine.stats.misses
    }
  }

  public var missBytes: Int64 {
    switch subject {
    case .cache(let cache): return cache.counters.missBytes
    case .engine(let engine): return engine.stats.missBytes
    }
  }

  public var hits: Int64 { requests - misses }
  public var hitRatio: Double { requests > 0 ? Double(hits) / Double(requests) : 0 }
  public var byteHitRatio: Double { requestBytes > 0 ? Double(requestBytes - missBytes) / Double(requestBytes) : 0 }

  public var evictions: Int64 {
    switch subject {
    case .cache(let cache): return cache.counters.evictions
    case .engine(let engine): return engine.stats.memoryEvictions + engine.stats.diskEvictions
    }
  }

  public var rejected: String {
    switch subject {
    case .cache(let cache): return String(cache.counters.rejected)
    case .engine: return ""
    }
  }

  /// Requests that found their object expired: an engine's expired or stale lookups, or a
  /// policy cache's with `--ttl` (empty without).
  public var expired: String {
    switch subject {
    case .cache(let cache): return run.configuration.timeToLive == nil ? "" : String(cache.counters.expired)
    case .engine(let engine): return String(engine.stats.expired)
    }
  }

  /// ``CacheResult/storageBytes`` on policy rows, empty on engine rows.
  public var cacheMemoryBytes: String {
    switch subject {
    case .cache(let cache): return String(cache.storageBytes)
    case .engine: return ""
    }
  }

  public var replaySeconds: Double {
    switch subject {
    case .cache(let cache): return cache.replaySeconds
    case .engine(let engine): return engine.replaySeconds
    }
  }

  public var requestsPerSecond: Double {
    replaySeconds > 0 ? Double(run.replayedRequests) / replaySeconds : 0
  }
}

extension String {
  /// The string with commas replaced by semicolons (parameter lists inside a CSV cell stay readable).
  func replacingCommas() -> String {
    String(map { $0 == "," ? ";" : $0 })
  }
}
