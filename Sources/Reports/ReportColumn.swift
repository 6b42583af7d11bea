import CacheCore
import Engine
import Replay

/// One column of the CSV report: a stable name and how to compute its value for a row.
///
/// The columns form a registry (``ReportColumn/standard``): a new metric is one entry, and
/// the CSV and every reader of it follow. Engine columns are empty on plain policy rows.
public struct ReportColumn: Sendable {
  /// Header name (snake_case, never renamed once published).
  public let name: String
  /// What the column holds (for the README's table).
  public let meaning: String
  /// Whether the value depends on timing (and so differs between identical runs).
  public let isTiming: Bool
  let value: @Sendable (ReportRow) -> String

  init(_ name: String, _ meaning: String, timing: Bool = false, _ value: @escaping @Sendable (ReportRow) -> String) {
    self.name = name
    self.meaning = meaning
    self.isTiming = timing
    self.value = value
  }

  /// The column's value for `row`.
  public func value(of row: ReportRow) -> String { value(row) }

  /// An engine-only column: empty on policy rows.
  static func engine(
    _ name: String, _ meaning: String, timing: Bool = false, _ value: @escaping @Sendable (EngineResult) -> String
  ) -> ReportColumn {
    ReportColumn(name, meaning, timing: timing) { row in row.engine.map(value) ?? "" }
  }

  static func ratio(_ part: Int64, _ whole: Int64) -> String {
    Decimal.fixed(whole > 0 ? Double(part) / Double(whole) : 0, 6)
  }

  /// The README's table of `columns` (name and meaning), generated here so the README cannot
  /// drift from the registry (`ReadmeTests` checks it).
  public static func markdownTable(_ columns: [(name: String, meaning: String)]) -> String {
    "| column | meaning |\n|---|---|\n" + columns.map { "| `\($0.name)` | \($0.meaning) |\n" }.joined()
  }

  /// The standard column called `name`, or nil. O(1).
  public static func named(_ name: String) -> ReportColumn? { byName[name] }

  private static let byName = Dictionary(uniqueKeysWithValues: standard.map { ($0.name, $0) })

  /// The documented column set, in report order.
  public static let standard: [ReportColumn] = [
    ReportColumn("trace", "trace file path as given") { $0.run.configuration.tracePath },
    ReportColumn("format", "trace format with its explicit parameters") { $0.run.configuration.trace.description },
    ReportColumn("policy", "policy name, or preset:NAME / engine for engine rows") { $0.policyName },
    ReportColumn("params", "every policy parameter (k=v;k=v), or the engine's tiers and rules") { $0.parameters },
    ReportColumn("capacity", "capacity in bytes (objects with ignore_size; an engine's first tier; empty if unlimited)")
    {
      $0.capacity
    },
    ReportColumn("capacity_spec", "the size as given, or the engine's tiers") { $0.capacitySpec },
    ReportColumn("ignore_size", "`true` in object mode") { String($0.run.configuration.ignoreSize) },
    ReportColumn("warmup", "warm-up as given (fraction of requests or trace time)") {
      $0.run.configuration.warmup.description
    },
    ReportColumn("num_req", "`--num-req`: requests read from the start of the trace (empty: all)") {
      $0.run.configuration.slice.requestLimit.map(String.init) ?? ""
    },
    ReportColumn(
      "sample_rate",
      "`--sample`: fraction of objects kept by spatial sampling (1: all; with --sample Nobj the rate the fixed-size pre-pass chose); below 1 the counts are scaled-back estimates and absolute capacities were scaled by it"
    ) { row in
      rateText(row.run.configuration.slice.sampleRate)
    },
    ReportColumn("seed", "seed for randomised policies") { String($0.run.configuration.seed) },
    ReportColumn("requests", "counted requests (after warm-up)") { String($0.requests) },
    ReportColumn("request_bytes", "bytes of the counted requests") { String($0.requestBytes) },
    ReportColumn("hits", "counted requests that hit") { String($0.hits) },
    ReportColumn("misses", "counted requests that missed") { String($0.misses) },
    ReportColumn("miss_bytes", "bytes of the misses") { String($0.missBytes) },
    ReportColumn("hit_ratio", "hits / requests") { Decimal.fixed($0.hitRatio, 6) },
    ReportColumn("byte_hit_ratio", "(request_bytes − miss_bytes) / request_bytes") {
      Decimal.fixed($0.byteHitRatio, 6)
    },
    ReportColumn("miss_ratio", "misses / requests") { Decimal.fixed($0.requests > 0 ? 1 - $0.hitRatio : 0, 6) },
    ReportColumn("byte_miss_ratio", "miss_bytes / request_bytes") {
      Decimal.fixed($0.requestBytes > 0 ? 1 - $0.byteHitRatio : 0, 6)
    },
    ReportColumn("evictions", "objects evicted, warm-up excluded (engines: both tiers)") { String($0.evictions) },
    ReportColumn(
      "rejected", "misses not inserted: larger than the cache, refused by the policy's own filter or by admission"
    ) { $0.rejected },
    ReportColumn("warmup_requests", "requests replayed but not counted") { String($0.run.warmupRequests) },
    ReportColumn("unique_objects", "distinct objects in the trace (empty without a pre-pass)") { row in
      row.run.summary.map { String($0.uniqueObjects) } ?? ""
    },
    ReportColumn("working_set_bytes", "sum of first-seen object sizes (empty without a pre-pass)") { row in
      row.run.summary.map { String($0.workingSetBytes) } ?? ""
    },
    ReportColumn("replay_seconds", "seconds this cache spent replaying (policy + engine)", timing: true) {
      Decimal.fixed($0.replaySeconds, 6)
    },
    ReportColumn("requests_per_second", "replayed requests / `replay_seconds`", timing: true) {
      Decimal.fixed($0.requestsPerSecond, 0)
    },
    ReportColumn(
      "peak_memory_bytes",
      "peak resident memory of the whole process at the end of the run (getrusage max RSS; all caches of the pass together); like the timings, not compared by `regress`",
      timing: true
    ) { String($0.run.peakMemoryBytes) },
    ReportColumn(
      "cache_memory_bytes",
      "bytes the cache's own structures held at the end of the run — arenas with their hash buckets, heaps, sketches, ghost entries, a --ttl expiry table (the simulator's accounting at allocated sizes, which never shrink, so also the peak; policy rows)"
    ) { $0.cacheMemoryBytes },
    .engine("memory_hits", "requests answered by the memory tier") { String($0.stats.memoryHits) },
    .engine("disk_hits", "requests answered by the disk tier") { String($0.stats.diskHits) },
    .engine("memory_hit_ratio", "memory_hits / requests") { ratio($0.stats.memoryHits, $0.stats.requests) },
    .engine("disk_hit_ratio", "disk_hits / requests") { ratio($0.stats.diskHits, $0.stats.requests) },
    ReportColumn("ttl", "--ttl as given: 'trace' or the default lifetime (empty: policy caches never expire objects)") {
      $0.run.configuration.timeToLive?.description ?? ""
    },
    ReportColumn(
      "expired",
      "lookups that found an expired or stale object (engines; policy caches with --ttl, where each is also a miss)"
    ) { $0.expired },
    .engine("revalidated_304", "conditional requests answered 304 (headers refreshed, body kept)") {
      String($0.stats.revalidated304)
    },
    .engine("revalidated_200", "conditional requests answered 200 (new body)") { String($0.stats.revalidated200) },
    .engine("stale_served", "responses served from a tier with a version older than the origin's") {
      String($0.stats.staleServed)
    },
    .engine("served_while_revalidating", "responses served while revalidating in the background") {
      String($0.stats.servedWhileRevalidating)
    },
    .engine("served_on_error", "stale responses served because the origin failed (stale-if-error)") {
      String($0.stats.servedOnError)
    },
    .engine("lost_body_served", "responses served with a body the cache had lost (MKNetworkKit 304 quirk)") {
      String($0.stats.lostBodyServed)
    },
    .engine("origin_fetches", "full responses fetched from the origin") { String($0.stats.originFetches) },
    .engine("origin_bytes", "bytes transferred from the origin (bodies and headers)") { String($0.stats.originBytes) },
    .engine("origin_errors", "requests the origin failed with no stale copy to serve") {
      String($0.stats.originErrors)
    },
    .engine("bypassed", "requests the library sent past its cache (e.g. MKNetworkKit's HTTPS without always-cache)") {
      String($0.stats.bypassed)
    },
    .engine("disk_reads", "object reads from the disk tier") { String($0.stats.disk.reads) },
    .engine("disk_writes", "object writes to the disk tier") { String($0.stats.disk.writes) },
    .engine("disk_bytes_read", "bytes read from disk") { String($0.stats.disk.bytesRead) },
    .engine("disk_bytes_written", "bytes written to disk") { String($0.stats.disk.bytesWritten) },
    .engine("disk_files_created", "files created (a replaced file counts again)") {
      String($0.stats.disk.filesCreated)
    },
    .engine("disk_files_deleted", "files deleted (evictions, cleanups, replacements refused)") {
      String($0.stats.disk.filesDeleted)
    },
    .engine("disk_fsyncs", "fsync calls (file backend)") { String($0.stats.disk.fsyncs) },
    .engine("disk_corrupt_discarded", "damaged or leftover files discarded (file backend)") {
      String($0.stats.disk.corruptDiscarded)
    },
    .engine("purges", "purge and cleanup runs (memory clears and trims, flushes, disk cleanups)") {
      String($0.stats.purges)
    },
    .engine("purged_objects", "objects removed by purges") { String($0.stats.purged) },
    .engine("memory_objects", "objects in memory at the end") { String($0.memoryObjects) },
    .engine("disk_objects", "objects on disk at the end") { String($0.diskObjects) },
    .engine("latency_p50", "median request latency, µs (modelled; file backend: measured disk time)") {
      String($0.stats.latency.valueAtPercentile(50))
    },
    .engine("latency_p90", "90th percentile latency, µs") { String($0.stats.latency.valueAtPercentile(90)) },
    .engine("latency_p99", "99th percentile latency, µs") { String($0.stats.latency.valueAtPercentile(99)) },
    .engine("latency_p999", "99.9th percentile latency, µs") { String($0.stats.latency.valueAtPercentile(99.9)) },
    .engine("latency_max", "largest latency, µs") { String($0.stats.latency.max) },
    ReportColumn("window", "window size as given (--window: 100000r or 1h), empty without") {
      $0.run.configuration.window?.description ?? ""
    },
    ReportColumn("windows", "number of windows with counted requests (a partial last one included)") { row in
      row.run.configuration.window == nil ? "" : String(row.run.windows.count)
    },
    ReportColumn(
      "window_hit_ratio_mean",
      "request-weighted mean of the windows' hit ratios (hits / requests over the windows in the statistics)"
    ) { row in
      row.windowedHitRatio.map { Decimal.fixed($0.mean, 6) } ?? ""
    },
    ReportColumn("window_hit_ratio_sd", "request-weighted standard deviation of the windows' hit ratios") { row in
      row.windowedHitRatio.map { Decimal.fixed($0.windowStandardDeviation, 6) } ?? ""
    },
    ReportColumn(
      "window_hit_ratio_ci95_low",
      "95 % confidence interval of the window mean (Student t over batch means, clipped to 0–1), lower end"
    ) { row in
      row.windowedHitRatio.map { Decimal.fixed(Metric.hitRatio.clip($0.test.lower, $0.test.upper).low, 6) } ?? ""
    },
    ReportColumn("window_hit_ratio_ci95_high", "upper end") { row in
      row.windowedHitRatio.map { Decimal.fixed(Metric.hitRatio.clip($0.test.lower, $0.test.upper).high, 6) } ?? ""
    },
    ReportColumn(
      "window_batches",
      "samples behind that interval: the windows, or batches of adjacent windows merged while autocorrelated"
    ) { row in
      row.windowedHitRatio.map { String($0.batches.count) } ?? ""
    },
    ReportColumn("window_lag1_autocorrelation", "lag-1 autocorrelation of the windows' hit ratios (GSL)") { row in
      row.windowedHitRatio.map { Decimal.fixed($0.batches.windowAutocorrelation, 6) } ?? ""
    },
    ReportColumn("window_partial_excluded", "`true` when a last window shorter than half a window was left out") {
      row in
      row.run.configuration.window == nil ? "" : String(row.run.windows.last?.isPartial ?? false)
    },
    ReportColumn("cell", "the row's index in the run's grid (policies × sizes, then engines); shards keep it") {
      String($0.cell)
    },
    ReportColumn("cells", "size of that grid (a merge checks every cell is present once)") {
      String($0.run.configuration.gridSize)
    },
    ReportColumn(
      "sample_floor",
      "`--sample-floor`: with sampling, the fewest objects a scaled cache may hold (a smaller one is simulated at a higher rate); empty without sampling"
    ) { row in
      row.run.configuration.slice.sampleRate < 1 ? String(row.run.configuration.slice.minimumObjects) : ""
    },
    ReportColumn(
      "cache_sample_rate",
      "the rate this row was simulated and scaled at: `sample_rate`, or higher when the floor raised it"
    ) { row in
      rateText(row.cacheSampleRate)
    },
    ReportColumn(
      "admission",
      "`--admission`: the admission policy in front of the cache with every parameter (name:k=v;k=v; empty: none; an engine's tiers name theirs in params)"
    ) { $0.result.admission },
    ReportColumn(
      "declined", "objects the admission policy refused: misses (also in rejected) and puts (empty without --admission)"
    ) { $0.result.declined.map(String.init) ?? "" },
  ]

  /// Six decimals, or every digit when six would not give the rate back (a fixed-size
  /// sample's or a raised rate is a multiple of 2^-24), so a baseline replays at the same rate.
  static func rateText(_ rate: Double) -> String {
    let fixed = Decimal.fixed(rate, 6)
    return Double(fixed) == rate ? fixed : String(rate)
  }
}
