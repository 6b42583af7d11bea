import CacheCore
import Engine
import Histogram
import Replay

/// One column of the report: a stable name, what it means, how to compute its cell for a row
/// and, for numbers, its unit, how tables title and print it, and whether (and how, for
/// ratios) `compare` and `regress` aggregate it as a metric.
///
/// The columns form the one registry of results (``ReportColumn/standard``): the CSV, the JSON,
/// the terminal and Markdown tables (``TableReport``), the metrics (``Metric``) and the
/// column table of docs/reports.md (`cachelab columns`) all read it, so a new figure is one entry. Engine columns are empty
/// on plain policy rows.
public struct ReportColumn: Sendable {
  /// How a numeric column's values read and print.
  public enum Unit: Sendable {
    /// A fraction, printed as a percentage; differences in percentage points.
    case ratio
    case count
    case bytes
    /// Requests per second, printed in millions.
    case speed
    case microseconds

    /// `value` as a table cell: `43.70 %`, `45041`, `536.43 MiB`, `44.12` (the title says
    /// M req/s), `117` (the title says µs). O(1).
    public func cell(_ value: Double) -> String {
      switch self {
      case .ratio: return Decimal.fixed(value * 100, 2) + " %"
      case .count, .microseconds: return Decimal.fixed(value, value == value.rounded() ? 0 : 1)
      case .bytes: return ByteCount.format(Int64(value.rounded()))
      case .speed: return Decimal.fixed(value / 1e6, 2)
      }
    }
  }

  /// Numerator and denominator of a ratio, read from a report row's cells by column name.
  typealias Parts = @Sendable (_ value: (String) -> Double?) -> (Double, Double)?
  /// Numerator and denominator of a ratio in a window, for the cache at an index.
  typealias WindowParts = @Sendable (WindowRecord, Int) -> (Double, Double)

  /// Header name (snake_case, never renamed once published).
  public let name: String
  /// What the column holds (for `cachelab columns` and docs/reports.md).
  public let meaning: String
  /// Whether the value depends on timing (and so differs between identical runs).
  public let isTiming: Bool
  /// A numeric column's unit; nil for text.
  public let unit: Unit?
  /// The header terminal and Markdown tables give it.
  public private(set) var title: String
  /// Whether `compare` and `regress` offer it as a metric (``Metric/all``).
  public private(set) var isMetric = false
  /// Shown as `-` in tables of object-mode runs, where bytes mean nothing.
  private(set) var bytesOnly = false
  let value: @Sendable (ReportRow) -> String
  /// The number behind the cell (nil: text, or an empty cell).
  let number: (@Sendable (ReportRow) -> Double?)?
  /// A ratio's parts, so that an overall figure is Σ numerators / Σ denominators.
  private(set) var parts: Parts?
  /// A ratio's parts per window (nil: not per window).
  private(set) var window: WindowParts?
  /// A table cell other than the unit's (the capacity's `1.00 MiB (0.1)`).
  private var display: (@Sendable (ReportRow) -> String)?

  init(_ name: String, _ meaning: String, timing: Bool = false, _ value: @escaping @Sendable (ReportRow) -> String) {
    self.init(name, meaning, timing: timing, unit: nil, value: value, number: nil)
  }

  private init(
    _ name: String, _ meaning: String, timing: Bool, unit: Unit?, value: @escaping @Sendable (ReportRow) -> String,
    number: (@Sendable (ReportRow) -> Double?)?
  ) {
    self.name = name
    self.meaning = meaning
    self.isTiming = timing
    self.unit = unit
    self.title = name.replacingOccurrences("_", with: " ")
    self.value = value
    self.number = number
  }

  /// The column's value for `row`.
  public func value(of row: ReportRow) -> String { value(row) }

  /// The column's cell in a terminal or Markdown table.
  public func cell(of row: ReportRow) -> String {
    if let display { return display(row) }
    if bytesOnly, row.run.configuration.ignoreSize { return "-" }
    guard let unit, let number = number?(row) else {
      let text = value(row)
      return text.isEmpty && unit == .ratio ? "-" : text
    }
    return unit.cell(number)
  }

  /// A whole-number column (counts, bytes): the integer, empty when `value` is nil.
  static func integer(
    _ name: String, _ meaning: String, _ unit: Unit = .count, _ value: @escaping @Sendable (ReportRow) -> Int64?
  ) -> ReportColumn {
    ReportColumn(
      name, meaning, timing: false, unit: unit, value: { row in value(row).map(String.init) ?? "" },
      number: { row in value(row).map(Double.init) })
  }

  /// A fraction column, six decimals.
  static func fraction(_ name: String, _ meaning: String, _ value: @escaping @Sendable (ReportRow) -> Double)
    -> ReportColumn
  {
    ReportColumn(
      name, meaning, timing: false, unit: .ratio, value: { Decimal.fixed(value($0), 6) }, number: { value($0) })
  }

  /// A fraction of a total, six decimals; empty (`-` in tables) when the total is 0: 0/0 is
  /// no ratio, not 0 %.
  static func fraction(
    _ name: String, _ meaning: String, of total: @escaping @Sendable (ReportRow) -> Int64,
    _ value: @escaping @Sendable (ReportRow) -> Double
  ) -> ReportColumn {
    ReportColumn(
      name, meaning, timing: false, unit: .ratio, value: { total($0) > 0 ? Decimal.fixed(value($0), 6) : "" },
      number: { total($0) > 0 ? value($0) : nil })
  }

  /// Requests per second, whole.
  static func speed(_ name: String, _ meaning: String, _ value: @escaping @Sendable (ReportRow) -> Double)
    -> ReportColumn
  {
    ReportColumn(name, meaning, timing: true, unit: .speed, value: { Decimal.fixed(value($0), 0) }, number: value)
  }

  /// An engine-only column: empty on policy rows.
  static func engine(
    _ name: String, _ meaning: String, timing: Bool = false, _ value: @escaping @Sendable (CacheResult) -> String
  ) -> ReportColumn {
    ReportColumn(name, meaning, timing: timing) { row in row.engine.map(value) ?? "" }
  }

  /// An engine-only whole-number column.
  static func engineInteger(
    _ name: String, _ meaning: String, _ unit: Unit = .count, _ value: @escaping @Sendable (CacheResult) -> Int64
  ) -> ReportColumn {
    integer(name, meaning, unit) { row in row.engine.map(value) }
  }

  /// An engine's latency at `percentile`, µs; a metric, per window too.
  static func engineLatency(_ name: String, _ meaning: String, _ percentile: Double) -> ReportColumn {
    engineInteger(name, meaning, .microseconds) { Int64(clamping: $0.stats.latency.valueAtPercentile(percentile)) }
      .metric(window: windowLatency(LatencyFigure(.all, percentile)))
  }

  /// A latency figure per window as a value of its own: (µs, 1), or (0, 0) where the window
  /// has none (left out, and pairing then needs the same windows on both sides).
  static func windowLatency(_ figure: LatencyFigure) -> WindowParts {
    { record, index in record.latency(index, figure).map { ($0, 1) } ?? (0, 0) }
  }

  /// An engine-only fraction of its requests: `part` / requests (0 without requests).
  static func engineShare(_ name: String, _ meaning: String, _ part: @escaping @Sendable (EngineStats) -> Int64)
    -> ReportColumn
  {
    // Empty (no ratio) when the engine counted no request.
    let share = { @Sendable (stats: EngineStats) -> Double? in
      stats.requests > 0 ? Double(part(stats)) / Double(stats.requests) : nil
    }
    return ReportColumn(
      name, meaning, timing: false, unit: .ratio,
      value: { row in row.engine.flatMap { share($0.stats) }.map { Decimal.fixed($0, 6) } ?? "" },
      number: { row in row.engine.flatMap { share($0.stats) } })
  }

  /// The same column offered as a metric, with a ratio's parts (per report row and per window).
  func metric(parts: Parts? = nil, window: WindowParts? = nil) -> ReportColumn {
    var copy = self
    copy.isMetric = true
    copy.parts = parts
    copy.window = window
    return copy
  }

  /// The same column titled `title` in tables (`bytesOnly`: `-` in object mode; `display`:
  /// its own cell).
  func titled(
    _ title: String, bytesOnly: Bool = false, display: (@Sendable (ReportRow) -> String)? = nil
  ) -> ReportColumn {
    var copy = self
    copy.title = title
    copy.bytesOnly = bytesOnly
    copy.display = display
    return copy
  }

  /// Parts read from two columns.
  static func quotient(_ numerator: String, _ denominator: String) -> Parts {
    { value in
      guard let top = value(numerator), let bottom = value(denominator) else { return nil }
      return (top, bottom)
    }
  }

  /// A capacity as tables print it: `1.00 MiB`, `500 obj`, with the spec when relative (`(0.1)`).
  /// A sampled cache shows the size it was configured with, not the scaled size it ran at
  /// (`cache_sample_rate` says how it was scaled), so two configured sizes never share a label.
  static let capacityCell: @Sendable (ReportRow) -> String = { row in
    var limit = row.result.capacityLimit ?? 0
    if row.cacheSampleRate < 1, !row.result.capacityIsRelative, let configured = Int64(row.capacitySpec) {
      limit = configured
    }
    let text = row.run.configuration.ignoreSize ? "\(limit) obj" : ByteCount.format(limit)
    return row.result.capacityIsRelative ? "\(text) (\(row.capacitySpec))" : text
  }

  /// The table of `columns` (name and meaning) in docs/reports.md, generated here so the docs cannot
  /// drift from the registry (`ReadmeTests` checks it).
  public static func markdownTable(_ columns: [(name: String, meaning: String)]) -> String {
    "| column | meaning |\n|---|---|\n" + columns.map { "| `\($0.name)` | \($0.meaning) |\n" }.joined()
  }

  /// The standard column called `name`, or nil. O(1).
  public static func named(_ name: String) -> ReportColumn? { byName[name] }

  private static let byName = Dictionary(uniqueKeysWithValues: standard.map { ($0.name, $0) })

  /// The documented column set, in report order.
  // Four arrays rather than one literal: a single 100-element initialiser was the function
  // of this module the optimizer spent longest on (-sil-print-pass-time; see commit 2f55051).
  public static let standard: [ReportColumn] =
    runColumns + countColumns + engineColumns + windowColumns + observedColumns + latencyModelColumns
    + agreementColumns

  /// The columns of what was run: trace, policy, size, options.
  private static let runColumns: [ReportColumn] = [
    ReportColumn("trace", "trace file path as given") { $0.run.configuration.tracePath },
    ReportColumn("format", "trace format with its explicit parameters") { $0.run.configuration.trace.description },
    ReportColumn("policy", "policy name, or preset:NAME / engine for engine rows") { $0.policyName },
    ReportColumn("params", "every policy parameter (k=v;k=v), or the engine's tiers and rules") { $0.parameters },
    ReportColumn("capacity", "capacity in bytes (objects with ignore_size; an engine's first tier; empty if unlimited)")
    {
      $0.capacity
    }.titled("capacity", display: capacityCell),
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
  ]

  /// The columns of what a cache counted: requests, hits, misses, evictions, speed, memory.
  private static let countColumns: [ReportColumn] = [
    .integer("requests", "counted requests (after warm-up)") { $0.requests },
    .integer("request_bytes", "bytes of the counted requests", .bytes) { $0.requestBytes },
    .integer("hits", "counted requests that hit") { $0.hits },
    .integer("misses", "counted requests that missed") { $0.misses }.metric(),
    .integer("miss_bytes", "bytes of the misses", .bytes) { $0.missBytes }.metric()
      .titled("miss bytes", bytesOnly: true),
    .fraction("hit_ratio", "hits / requests (empty when no request was counted)", of: \.requests) { $0.hitRatio }
      .metric(parts: quotient("hits", "requests"), window: { (Double($0.hits[$1]), Double($0.requests)) }),
    .fraction("byte_hit_ratio", "(request_bytes − miss_bytes) / request_bytes", of: \.requestBytes) {
      $0.byteHitRatio
    }
    .metric(
      parts: { value in
        guard let bytes = value("request_bytes"), let misses = value("miss_bytes") else { return nil }
        return (bytes - misses, bytes)
      }, window: { (Double($0.hitBytes[$1]), Double($0.requestBytes)) }
    ).titled("byte hit ratio", bytesOnly: true),
    .fraction("miss_ratio", "misses / requests", of: \.requests) { 1 - $0.hitRatio }
      .metric(
        parts: quotient("misses", "requests"), window: { (Double($0.requests - $0.hits[$1]), Double($0.requests)) }),
    .fraction("byte_miss_ratio", "miss_bytes / request_bytes", of: \.requestBytes) { 1 - $0.byteHitRatio },
    .integer("evictions", "objects evicted, warm-up excluded (engines: both tiers)") { $0.evictions },
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
    .speed("requests_per_second", "replayed requests / `replay_seconds`") { $0.requestsPerSecond }.metric()
      .titled("M req/s"),
    ReportColumn(
      "peak_memory_bytes",
      "peak resident memory of the whole process at the end of the run (getrusage max RSS; all caches of the pass together); like the timings, not compared by `regress`",
      timing: true
    ) { String($0.run.peakMemoryBytes) },
    ReportColumn(
      "cache_memory_bytes",
      "bytes the cache's own structures held at the end of the run — arenas with their hash buckets, heaps, sketches, ghost entries, a --ttl expiry table (the simulator's accounting at allocated sizes, which never shrink, so also the peak; policy rows)"
    ) { $0.cacheMemoryBytes },
  ]

  /// The columns of engine rows: tiers, revalidation, origin, disk I/O, latency.
  private static let engineColumns: [ReportColumn] = [
    .engineInteger("memory_hits", "requests answered by the memory tier") { $0.stats.memoryHits },
    .engineInteger("disk_hits", "requests answered by the disk tier") { $0.stats.diskHits },
    .engineShare("memory_hit_ratio", "memory_hits / requests") { $0.memoryHits }
      .metric(parts: quotient("memory_hits", "requests")).titled("memory"),
    .engineShare("disk_hit_ratio", "disk_hits / requests") { $0.diskHits }
      .metric(parts: quotient("disk_hits", "requests")).titled("disk"),
    ReportColumn("ttl", "--ttl as given: 'trace' or the default lifetime (empty: policy caches never expire objects)") {
      $0.run.configuration.timeToLive?.description ?? ""
    },
    .integer(
      "expired",
      "lookups that found an expired or stale object (engines; policy caches with --ttl, where each is also a miss)"
    ) { $0.result.expiredLookups },
    .engineInteger("revalidated_304", "conditional requests answered 304 (headers refreshed, body kept)") {
      $0.stats.revalidated304
    }
    .titled("304"),
    .engineInteger("revalidated_200", "conditional requests answered 200 (new body)") { $0.stats.revalidated200 }
      .titled("200"),
    .engineInteger("stale_served", "responses served from a tier with a version older than the origin's") {
      $0.stats.staleServed
    }
    .metric().titled("stale"),
    .engineInteger("served_while_revalidating", "responses served while revalidating in the background") {
      $0.stats.servedWhileRevalidating
    },
    .engineInteger("served_on_error", "stale responses served because the origin failed (stale-if-error)") {
      $0.stats.servedOnError
    },
    .engineInteger("lost_body_served", "responses served with a body the cache had lost (MKNetworkKit 304 quirk)") {
      $0.stats.lostBodyServed
    },
    .engineInteger("origin_fetches", "full responses fetched from the origin") { $0.stats.originFetches },
    .engineInteger("origin_bytes", "bytes transferred from the origin (bodies and headers)", .bytes) {
      $0.stats.originBytes
    }
    .metric().titled("origin"),
    .engineInteger("origin_errors", "requests the origin failed with no stale copy to serve") { $0.stats.originErrors },
    .engineInteger(
      "bypassed", "requests the library sent past its cache (e.g. MKNetworkKit's HTTPS without always-cache)"
    ) { $0.stats.bypassed },
    .engineInteger("disk_reads", "object reads from the disk tier") { $0.stats.disk.reads },
    .engineInteger("disk_writes", "object writes to the disk tier") { $0.stats.disk.writes }.titled("disk writes"),
    .engineInteger("disk_bytes_read", "bytes read from disk (with each file's 256-byte header)", .bytes) {
      $0.stats.disk.bytesRead
    },
    .engineInteger("disk_bytes_written", "bytes written to disk (with each file's 256-byte header)", .bytes) {
      $0.stats.disk.bytesWritten
    },
    .engineInteger("disk_files_created", "files created (a replaced file counts again)") { $0.stats.disk.filesCreated },
    .engineInteger("disk_files_deleted", "files deleted (evictions, cleanups, replacements refused)") {
      $0.stats.disk.filesDeleted
    },
    .engineInteger("disk_fsyncs", "fsync calls: the file and its folder per write (counted alike in simulated mode)") {
      $0.stats.disk.fsyncs
    },
    .engineInteger("disk_corrupt_discarded", "damaged or leftover files discarded (file backend)") {
      $0.stats.disk.corruptDiscarded
    },
    .engineInteger(
      "purges", "purge and cleanup runs (memory clears and trims, flushes, disk cleanups; a launch that drops memory)"
    ) {
      $0.stats.purges
    },
    .engineInteger("purged_objects", "objects removed by purges") { $0.stats.purged },
    .engineInteger("memory_objects", "objects in memory at the end") { Int64($0.memoryObjects) },
    .engineInteger("disk_objects", "objects on disk at the end") { Int64($0.diskObjects) },
    .engineLatency("latency_p50", "median request latency, µs (modelled; file backend: measured disk time)", 50)
      .titled("p50 µs"),
    .engineLatency("latency_p90", "90th percentile latency, µs", 90),
    .engineLatency("latency_p99", "99th percentile latency, µs", 99).titled("p99 µs"),
    .engineLatency("latency_p999", "99.9th percentile latency, µs", 99.9),
    .engineInteger("latency_max", "largest latency, µs", .microseconds) { Int64(clamping: $0.stats.latency.max) },
  ]

  /// The columns of windows, grid cells and sampling.
  private static let windowColumns: [ReportColumn] = [
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
    ReportColumn("shard", "`--shard i/N`: the part of the grid the run replayed (empty: all of it)") {
      $0.run.configuration.shard.map(\.description) ?? ""
    },
    ReportColumn(
      "grid", "the run's whole grid: its policies @ sizes, + its engines (a merge checks that shards share it)"
    ) { $0.run.configuration.gridDescription },
  ]

  /// What the trace's records say the real caches did (HTTP logs and captures), the same on
  /// every row of a run; empty where the trace states no outcome.
  private static let observedColumns: [ReportColumn] = [
    ReportColumn(
      "observed_hits",
      "counted requests that the real upstream cache named by the trace served without a full origin fetch (a log's cache status: see Traces/README.md)"
    ) { row in
      row.run.observed.hasOutcomes ? String(row.run.observed.upstreamHits) : ""
    },
    ReportColumn(
      "observed_hit_ratio",
      "observed_hits / the counted requests whose record states that cache's outcome (empty when none does)"
    ) { row in
      row.run.observed.upstreamHitRatio.map { Decimal.fixed($0, 6) } ?? ""
    },
    ReportColumn(
      "observed_client_hits", "counted requests that the recording client answered from its own cache (HAR)"
    ) { row in
      row.run.observed.hasOutcomes ? String(row.run.observed.clientHits) : ""
    },
  ]

  /// Per-request agreement of an engine with the trace's own cache (appended last, so older
  /// reports stay a prefix); empty for policy rows and traces that state no outcome.
  private static let agreementColumns: [ReportColumn] = [
    ReportColumn(
      "observed_compared",
      "counted requests whose record states the real cache's hit or miss, compared one by one with the engine's"
    ) { row in
      let compared = row.engine.map { $0.stats.observedAgreements + $0.stats.observedDisagreements } ?? 0
      return compared > 0 ? String(compared) : ""
    },
    ReportColumn(
      "observed_agreement",
      "the share of observed_compared whose simulated outcome (hit: from a tier or a 304) equals the record's"
    ) { row in
      guard let stats = row.engine?.stats else { return "" }
      let compared = stats.observedAgreements + stats.observedDisagreements
      return compared > 0 ? Decimal.fixed(Double(stats.observedAgreements) / Double(compared), 6) : ""
    },
  ]

  /// The latency model an engine charged (appended last, so older reports stay a prefix).
  private static let latencyModelColumns: [ReportColumn] = [
    .engine(
      "latency_profile",
      "what the engine's latency model was made from: default, --latency-profile items, --latency (engines only)"
    ) { $0.configuration.latency.profile },
    .engine(
      "latency_model", "the engine's whole latency model as a --latency SPEC, which re-runs it exactly (engines only)"
    ) { $0.configuration.latency.description },
    .tierLatency("memory_hit_latency_p50", "median latency of the requests memory answered, µs", .memoryHit, 50),
    .tierLatency("disk_hit_latency_p50", "median latency of the requests the disk answered, µs", .diskHit, 50),
    .tierLatency("disk_hit_latency_p90", "90th percentile latency of the requests the disk answered, µs", .diskHit, 90),
    .tierLatency(
      "disk_write_latency_p50", "median cost of a write to disk (after the response, in no request's latency), µs",
      .diskWrite, 50),
    .tierLatency(
      "origin_latency_p50", "median latency of the full fetches from the origin (not revalidations), µs", .origin, 50),
  ]

  /// A percentile of one of an engine's per-tier histograms, µs; empty where it recorded none
  /// (no such tier, or nothing it answered). A metric, per window too.
  static func tierLatency(
    _ name: String, _ meaning: String, _ source: LatencyFigure.Source, _ percentile: Double
  ) -> ReportColumn {
    let figure = LatencyFigure(source, percentile)
    return integer(name, meaning, .microseconds) { row in
      guard let stats = row.engine?.stats, let recorded = figure.histogram(stats), recorded.totalCount > 0 else {
        return nil
      }
      return Int64(clamping: recorded.valueAtPercentile(percentile))
    }.metric(window: windowLatency(figure))
  }

  /// Six decimals, or every digit when six would not give the rate back (a fixed-size
  /// sample's or a raised rate is a multiple of 2^-24), so a baseline replays at the same rate.
  static func rateText(_ rate: Double) -> String {
    let fixed = Decimal.fixed(rate, 6)
    return Double(fixed) == rate ? fixed : String(rate)
  }
}
