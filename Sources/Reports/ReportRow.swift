import CacheCore
import Engine
import Replay
import Stats

/// One row of a report: a cache of a run (a policy run or an engine), read through its
/// `CacheResult`, which says what each figure means for either kind.
public struct ReportRow: Sendable {
  public let run: RunResult
  /// What the row describes.
  public let result: CacheResult
  /// Position of the row's cache in the run (``RunResult/caches``).
  public let index: Int

  /// Every row of `runs`, caches first, then engines, in run order.
  public static func rows(_ runs: [RunResult]) -> [ReportRow] {
    runs.flatMap { run in run.caches.enumerated().map { ReportRow(run: run, result: $1, index: $0) } }
  }

  /// The row's cell in the run's full (policy × size, then engines) grid, shards included.
  public var cell: Int { result.cell }

  /// The numerators and denominators of `metric` in the run's windows that count in the
  /// statistics (a last partial window, and windows with a zero denominator, left out), those
  /// windows' numbers and how many were left out; nil when the metric has no per-window
  /// values. O(windows).
  public func windowParts(_ metric: Metric)
    -> (numerators: [Double], denominators: [Double], numbers: [Int], excluded: Int)?
  {
    guard let window = metric.window else { return nil }
    let parts = run.windows.enumerated().filter { !$0.element.isPartial }.map { ($0.offset, window($0.element, index)) }
      .filter { $0.1.1 > 0 }
    return (parts.map(\.1.0), parts.map(\.1.1), parts.map(\.0), run.windows.count - parts.count)
  }

  /// The request-weighted hit ratio over the run's windows (a last partial window left out),
  /// with its batch-means interval; nil without windows or when no window is complete.
  public var windowedHitRatio: WindowedRatio? {
    guard let parts = windowParts(.hitRatio), !parts.numerators.isEmpty else { return nil }
    return WindowedRatio(numerators: parts.numerators, denominators: parts.denominators)
  }

  /// The engine's result, for engine rows (nil for a policy run, which models no latency,
  /// origin or disk).
  public var engine: CacheResult? { result.isPolicyRun ? nil : result }

  /// Whether the row's policy (or an engine tier's policy) draws random numbers.
  public var isRandomized: Bool { result.isRandomized }

  public var policyName: String { result.name }

  /// Parameters in full: the policy's, or the engine's tiers and rules.
  public var parameters: String { result.parameterSummary }

  /// The sampling rate the row was simulated at (a cache's own, raised by the floor; an
  /// engine's is the run's).
  var cacheSampleRate: Double { result.sampleRate }

  /// Capacity of the cache, or of the engine's first tier ("" if unlimited).
  public var capacity: String { result.capacityLimit.map(String.init) ?? "" }

  public var capacitySpec: String { result.capacityDescription }

  public var requests: Int64 { result.requests }
  public var requestBytes: Int64 { result.requestBytes }
  public var misses: Int64 { result.misses }
  public var missBytes: Int64 { result.missBytes }
  public var hits: Int64 { requests - misses }
  public var hitRatio: Double { requests > 0 ? Double(hits) / Double(requests) : 0 }
  public var byteHitRatio: Double { requestBytes > 0 ? Double(requestBytes - missBytes) / Double(requestBytes) : 0 }
  public var evictions: Int64 { result.evictions }

  /// Misses too large to insert ("" on engine rows).
  public var rejected: String { result.rejections.map(String.init) ?? "" }

  /// ``CacheResult/structureBytes`` on policy rows, empty on engine rows.
  public var cacheMemoryBytes: String { result.structureBytes.map(String.init) ?? "" }

  public var replaySeconds: Double { result.replaySeconds }

  public var requestsPerSecond: Double {
    replaySeconds > 0 ? Double(run.replayedRequests) / replaySeconds : 0
  }
}
