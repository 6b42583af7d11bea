import CacheCore
import Replay
import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a report directory: the CSV, a Markdown summary and SVG charts (miss-ratio
/// curves, hit ratio over time, latency CDF, where latency goes — each when the runs have
/// the data for it).
/// The report replaces an earlier one whole: every file is written to a temporary file first,
/// all are renamed into place together, and files an earlier report left that this one does
/// not write are removed, so the folder never mixes two runs.
public enum ReportDirectory {
  /// Every file a report folder may hold (`study-command.txt` is the study file's record).
  public static let ownedFiles = [
    "report.csv", "windows.csv", "miss-ratio.svg", "hit-ratio-over-time.svg", "latency-cdf.svg",
    "latency-breakdown.svg", "README.md", "study-command.txt",
  ]

  /// Writes the report of `runs` into `directory` (created if missing); returns the file names.
  /// `baseline` picks the comparison's baseline as `compare --baseline` does.
  @discardableResult
  public static func write(_ runs: [RunResult], to directory: String, baseline: String? = nil) throws(FileError)
    -> [String]
  {
    try makeDirectories(directory, purpose: "report directory")
    let replacesAReport = holdsAReport(directory)
    var files: [(name: String, text: String)] = [("report.csv", CSVReport.render(runs))]
    if runs.first?.configuration.window != nil { files.append(("windows.csv", WindowSeries.render(runs))) }
    var charts: [(file: String, title: String)] = []
    if let chart = missRatioChart(runs) {
      files.append(("miss-ratio.svg", chart.render()))
      charts.append(("miss-ratio.svg", chart.title))
    }
    if let chart = hitRatioOverTimeChart(runs) {
      files.append(("hit-ratio-over-time.svg", chart.render()))
      charts.append(("hit-ratio-over-time.svg", chart.title))
    }
    if let chart = latencyChart(runs) {
      files.append(("latency-cdf.svg", chart.render()))
      charts.append(("latency-cdf.svg", chart.title))
    }
    if let chart = LatencyBreakdownChart(runs) {
      files.append(("latency-breakdown.svg", chart.render()))
      charts.append(("latency-breakdown.svg", chart.title))
    }
    files.append(("README.md", ReportMarkdown.render(runs, charts: charts, baseline: baseline)))
    try writeTogether(files, to: directory, removingStale: replacesAReport ? ownedFiles : [])
    return files.map(\.name)
  }

  /// Writes `files` into `directory` together: each to a temporary file, synced, then all
  /// renamed into place; then removes the names in `removingStale` this write did not produce.
  public static func writeTogether(
    _ files: [(name: String, text: String)], to directory: String, removingStale: [String]
  ) throws(FileError) {
    var writers: [AtomicFileWriter] = []
    for file in files {
      let writer = try AtomicFileWriter(path: directory + "/" + file.name)
      try writer.write(file.text)
      writers.append(writer)
      try writer.sync()
    }
    for writer in writers { try writer.commit() }
    let written = Set(files.map(\.name))
    for stale in removingStale where !written.contains(stale) { unlink(directory + "/" + stale) }
  }

  /// Whether `directory` holds a CacheLab report: a `report.csv` whose header starts as the
  /// report's does. Reads one line.
  public static func holdsAReport(_ directory: String) -> Bool {
    startsWith(directory + "/report.csv", ReportColumn.standard.prefix(3).map(\.name).joined(separator: ","))
  }

  /// Whether the file at `path` exists and begins with `prefix` (under 60 bytes). Reads one line.
  public static func startsWith(_ path: String, _ prefix: String) -> Bool {
    guard let file = fopen(path, "r") else { return false }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 64)
    guard fgets(&line, Int32(line.count), file) != nil else { return false }
    return line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.hasPrefix(prefix)
  }

  /// Miss ratio against cache size, one line per policy (mean over repeats).
  public static func missRatioChart(_ runs: [RunResult]) -> SVGChart? {
    guard let first = runs.first, first.configuration.capacities.count > 1, !first.policyRuns.isEmpty else {
      return nil
    }
    let series = MissRatioCurve.curves(runs).map { curve in
      SVGChart.Series(name: curve.policy, points: curve.points.map { (x: Double($0.capacity), y: $0.missRatio) })
    }
    let objectMode = first.configuration.ignoreSize
    var chart = SVGChart(
      title: "Miss ratio curve — " + fileName(first.configuration.tracePath),
      xLabel: objectMode ? "cache size (objects)" : "cache size", yLabel: "miss ratio", series: series)
    chart.logX = true
    if !objectMode {
      chart.formatX = { value in SVGChart.bytes(value) }
      chart.binaryTicks = true
    }
    return chart
  }

  /// Hit ratio per window of the first run, one line per cache (at most ten).
  public static func hitRatioOverTimeChart(_ runs: [RunResult]) -> SVGChart? {
    guard let run = runs.first, run.windows.count > 1, let window = run.configuration.window else { return nil }
    // Every cache, or — when that is more than ten lines — each policy at its middle size.
    var chosen = Array(run.policyRuns.indices)
    if run.caches.count > 10 {
      let sizes = run.configuration.capacities.count
      chosen = chosen.filter { index in sizes == 0 || run.caches[index].cell % sizes == sizes / 2 }
    }
    let indices = chosen + run.engines.indices
    let names =
      chosen.map { "\(run.caches[$0].label) @ \(run.caches[$0].capacityDescription)" } + run.engines.map(\.label)
    let byTime: Bool
    if case .traceTime = window { byTime = true } else { byTime = false }
    let origin = run.windows[0]
    var series: [SVGChart.Series] = []
    for (index, name) in zip(indices, names).prefix(10) {
      var line: [(x: Double, y: Double)] = []
      for record in run.windows {
        let x =
          byTime
          ? Double(record.startTime - origin.startTime) / 3_600_000_000
          : Double(record.firstRequest - origin.firstRequest)
        line.append((x: x, y: record.hitRatio(index)))
      }
      series.append(SVGChart.Series(name: name, points: line))
    }
    var chart = SVGChart(
      title: "Hit ratio per window (\(window)) — " + fileName(run.configuration.tracePath),
      xLabel: byTime ? "trace time (hours)" : "requests", yLabel: "hit ratio (%)", series: Array(series))
    chart.formatY = { value in SVGChart.trim(Decimal.fixed(value * 100, 2)) }
    return chart
  }

  /// Dash patterns after the first engine's solid line, so equal curves stay visible.
  static let dashes = ["7 4", "2 3", "10 3 2 3", "1 3", "14 5", "5 2 1 2"]

  /// Latency distribution of every engine of the first run, from every recorded bucket of its
  /// histogram (a step per distinct latency), on a log axis; one line style per engine.
  public static func latencyChart(_ runs: [RunResult]) -> SVGChart? {
    guard let run = runs.first, !run.engines.isEmpty else { return nil }
    var series: [SVGChart.Series] = []
    for (index, engine) in run.engines.enumerated() {
      let histogram = engine.stats.latency
      let total = Double(histogram.totalCount)
      var line: [(x: Double, y: Double)] = []
      if total > 0 {
        for bucket in histogram.recordedValues() {
          line.append((x: Double(max(bucket.value, 1)), y: Double(bucket.totalCountToThisValue) / total))
        }
      }
      let style: SVGChart.Series.Style = index == 0 ? .line : .dashed(dashes[(index - 1) % dashes.count])
      series.append(SVGChart.Series(name: engine.label, points: line, style: style))
    }
    var chart = SVGChart(
      title: "Request latency CDF — " + fileName(run.configuration.tracePath), xLabel: "latency (µs)",
      yLabel: "fraction of requests", series: series)
    chart.logX = true
    chart.steps = true
    chart.yRange = 0...1
    return chart
  }

  /// The last component of `path`.
  public static func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
