import CacheCore
import Replay

/// The window-series CSV (`--window-series FILE.csv`, `windows.csv` in report directories):
/// one row per (configuration, repeat, window) with the window's bounds and counts, so that
/// hit ratio over time can be plotted and `compare` can pair windows. O(rows × windows).
public enum WindowSeries {
  /// The column that marks a window-series file.
  public static let indexColumn = "window_index"

  /// Columns, in order, with their meaning (`cachelab columns --window`, docs/reports.md).
  public static let columns: [(name: String, meaning: String)] =
    [
      ("trace", "trace file path as given"), ("format", "trace format"),
      ("policy", "policy name, or preset:NAME / engine"), ("params", "every parameter, as in the run report"),
      ("admission", "the admission policy, as in the run report"),
      ("capacity_spec", "the size as given, or the engine's tiers"),
      ("ignore_size", "true in object mode"), ("warmup", "warm-up as given"), ("window", "window size as given"),
      ("seed", "the repeat's seed"), (indexColumn, "0-based window number"),
      ("start_request", "number of the window's first request among all replayed rows"),
      ("end_request", "number just past its last row"),
      ("start_time", "trace time of the window's start, seconds (time windows: the nominal start)"),
      ("end_time", "trace time of its end, seconds (time windows: start + span; request windows: last request)"),
      ("requests", "counted requests in the window"), ("request_bytes", "their bytes"),
      ("hits", "requests answered from the cache"), ("misses", "requests that were not"),
      ("miss_bytes", "bytes of the misses"), ("hit_ratio", "hits / requests in this window"),
      ("byte_hit_ratio", "(request_bytes - miss_bytes) / request_bytes in this window"),
      ("in_statistics", "false for a last window shorter than half a window (left out of the statistics)"),
    ]
    + valueMetrics.map {
      (name: $0.name, meaning: "\($0.column.meaning), in this window (engines; empty where it has none)")
    }

  /// Metrics whose window figure is a value of its own (latency percentiles), not a ratio's
  /// counts: one column each, named as the run report's.
  static var valueMetrics: [Metric] { Metric.all.filter { $0.hasWindows && $0.parts == nil } }

  /// The leading columns, which name the configuration and repeat as in the run report.
  static let identityColumns = Array(columns.prefix(10).map(\.name))

  /// The file for `runs` (repeats of one configuration), rows by configuration, seed, window.
  public static func render(_ runs: [RunResult]) -> String {
    var text = columns.map(\.name).joined(separator: ",") + "\n"
    let perRun = runs.map { ReportRow.rows([$0]) }
    guard let count = perRun.first?.count else { return text }
    for index in 0..<count {
      for rows in perRun {
        let row = rows[index]
        let run = row.run
        let identity = identityColumns.map { ReportColumn.named($0)?.value(of: row) ?? "" }
        for (number, window) in run.windows.enumerated() {
          let end: Int64
          if case .traceTime(let span) = run.configuration.window {
            end = window.startTime + span
          } else {
            end = window.lastTime
          }
          let hits = window.hits[row.index]
          let fields =
            identity + [
              String(number), String(window.firstRequest), String(window.endRequest), seconds(window.startTime),
              seconds(end), String(window.requests), String(window.requestBytes), String(hits),
              String(window.requests - hits), String(window.requestBytes - window.hitBytes[row.index]),
              Decimal.fixed(window.hitRatio(row.index), 6), Decimal.fixed(window.byteHitRatio(row.index), 6),
              String(!window.isPartial),
            ]
            + valueMetrics.map { metric in
              metric.window.map { $0(window, row.index) }.flatMap { $0.1 > 0 ? Decimal.fixed($0.0, 0) : nil } ?? ""
            }
          text += fields.map(CSVReport.quote).joined(separator: ",") + "\n"
        }
      }
    }
    return text
  }

  /// Writes the file for `runs` to `path` atomically.
  public static func write(_ runs: [RunResult], to path: String) throws(FileError) {
    let file = try AtomicFileWriter(path: path)
    try file.write(render(runs))
    try file.commit()
  }

  static func seconds(_ microseconds: Int64) -> String { Decimal.fixed(Double(microseconds) / 1e6, 6) }
}
