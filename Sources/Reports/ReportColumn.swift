import CacheCore
import Replay

/// One column of the CSV report: a stable name and how to compute its value.
///
/// The columns form a registry (``ReportColumn/standard``): a new metric is one entry, and
/// the CSV and every reader of it follow.
public struct ReportColumn: Sendable {
  /// Header name (snake_case, never renamed once published).
  public let name: String
  /// What the column holds (for the README's table).
  public let meaning: String
  /// Whether the value depends on timing (and so differs between identical runs).
  public let isTiming: Bool
  let value: @Sendable (RunResult, CacheResult) -> String

  init(
    _ name: String, _ meaning: String, timing: Bool = false,
    _ value: @escaping @Sendable (RunResult, CacheResult) -> String
  ) {
    self.name = name
    self.meaning = meaning
    self.isTiming = timing
    self.value = value
  }

  /// The column's value for one cache of a run.
  public func value(of run: RunResult, _ cache: CacheResult) -> String {
    value(run, cache)
  }

  /// The documented column set, in report order.
  public static let standard: [ReportColumn] = [
    ReportColumn("trace", "trace file path as given") { run, _ in run.configuration.tracePath },
    ReportColumn("format", "trace format with its explicit parameters") { run, _ in run.configuration.trace.description
    },
    ReportColumn("policy", "policy name") { _, cache in cache.policy.name },
    ReportColumn("params", "every policy parameter, k=v;k=v") { _, cache in
      cache.policy.parameters.description.replacingCommas()
    },
    ReportColumn("capacity", "cache capacity in bytes (objects with ignore_size)") { _, cache in String(cache.capacity)
    },
    ReportColumn("capacity_spec", "the size as given (fraction of working set or absolute)") { _, cache in
      cache.capacitySpec.description
    },
    ReportColumn("ignore_size", "true in object mode (every size 1)") { run, _ in String(run.configuration.ignoreSize)
    },
    ReportColumn("warmup", "warm-up as given (fraction of requests or trace time)") { run, _ in
      run.configuration.warmup.description
    },
    ReportColumn("seed", "seed for randomised policies") { run, _ in String(run.configuration.seed) },
    ReportColumn("requests", "counted requests (after warm-up)") { _, cache in String(cache.requests) },
    ReportColumn("request_bytes", "bytes of the counted requests") { _, cache in String(cache.requestBytes) },
    ReportColumn("hits", "counted requests that hit") { _, cache in String(cache.hits) },
    ReportColumn("misses", "counted requests that missed") { _, cache in String(cache.counters.misses) },
    ReportColumn("miss_bytes", "bytes of the misses") { _, cache in String(cache.counters.missBytes) },
    ReportColumn("hit_ratio", "hits / requests") { _, cache in Decimal.fixed(cache.hitRatio, 6) },
    ReportColumn("byte_hit_ratio", "(request_bytes - miss_bytes) / request_bytes") { _, cache in
      Decimal.fixed(cache.byteHitRatio, 6)
    },
    ReportColumn("miss_ratio", "misses / requests") { _, cache in
      Decimal.fixed(cache.requests > 0 ? 1 - cache.hitRatio : 0, 6)
    },
    ReportColumn("byte_miss_ratio", "miss_bytes / request_bytes") { _, cache in
      Decimal.fixed(cache.requestBytes > 0 ? 1 - cache.byteHitRatio : 0, 6)
    },
    ReportColumn("evictions", "objects evicted, warm-up excluded") { _, cache in String(cache.counters.evictions) },
    ReportColumn("rejected", "misses for objects larger than the cache (not inserted)") { _, cache in
      String(cache.counters.rejected)
    },
    ReportColumn("warmup_requests", "requests replayed but not counted") { run, _ in String(run.warmupRequests) },
    ReportColumn("unique_objects", "distinct objects in the trace (empty without a pre-pass)") { run, _ in
      run.summary.map { String($0.uniqueObjects) } ?? ""
    },
    ReportColumn("working_set_bytes", "sum of first-seen object sizes (empty without a pre-pass)") { run, _ in
      run.summary.map { String($0.workingSetBytes) } ?? ""
    },
    ReportColumn("replay_seconds", "seconds this cache spent replaying", timing: true) { _, cache in
      Decimal.fixed(cache.replaySeconds, 6)
    },
    ReportColumn(
      "requests_per_second", "replayed requests / replay_seconds (policy + engine, single thread)", timing: true
    ) {
      run, cache in
      Decimal.fixed(cache.requestsPerSecond(replayed: run.replayedRequests), 0)
    },
  ]
}

extension String {
  /// The string with commas replaced by semicolons (parameter lists inside a CSV cell stay readable).
  func replacingCommas() -> String {
    String(map { $0 == "," ? ";" : $0 })
  }
}
