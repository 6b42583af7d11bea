import CacheCore
import Replay
import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a report directory: the CSV, a Markdown summary and SVG charts (miss-ratio
/// curves, hit ratio over time, latency CDF — each when the runs have the data for it).
/// The report replaces an earlier one whole: every file is written to a temporary file first,
/// all are renamed into place together, and files an earlier report left that this one does
/// not write are removed, so the folder never mixes two runs.
public enum ReportDirectory {
  /// Every file a report folder may hold (`study-command.txt` is the study file's record).
  public static let ownedFiles = [
    "report.csv", "windows.csv", "miss-ratio.svg", "hit-ratio-over-time.svg", "latency-cdf.svg", "README.md",
    "study-command.txt",
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

  /// Latency distribution of every engine of the first run.
  public static func latencyChart(_ runs: [RunResult]) -> SVGChart? {
    guard let run = runs.first, !run.engines.isEmpty else { return nil }
    let percentiles: [Double] = [0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 99, 99.5, 99.9, 99.99, 100]
    var series: [SVGChart.Series] = []
    for engine in run.engines {
      var line: [(x: Double, y: Double)] = []
      for percentile in percentiles {
        line.append((x: Double(max(engine.stats.latency.valueAtPercentile(percentile), 1)), y: percentile / 100))
      }
      series.append(SVGChart.Series(name: engine.label, points: line))
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
