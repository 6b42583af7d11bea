import CacheCore
import Replay

/// The Markdown summary of a report directory: the same tables, figures, units and rounding
/// as the terminal — results, engines, the sweep matrix with the best policy at each size,
/// repeat and window statistics, the like-with-like comparison — then the charts.
enum ReportMarkdown {
  /// The summary of `runs` (repeats of one configuration), linking `charts`.
  static func render(_ runs: [RunResult], charts: [(file: String, title: String)], baseline: String?) -> String {
    guard let first = runs.first else { return "# CacheLab report\n\nNo runs.\n" }
    var text = "# CacheLab report\n\n" + header(runs) + "\n"
    if !first.policyRuns.isEmpty {
      text += "## Results\n\n" + TableReport.markdown(TableReport.cacheRows(first))
      if runs.count > 1 { text += "\nRows show seed \(first.configuration.seed); the statistics cover every repeat.\n" }
    }
    if !first.engines.isEmpty { text += "\n## Engines\n\n" + TableReport.markdown(TableReport.engineRows(first)) }
    if first.configuration.capacities.count > 1, !first.policyRuns.isEmpty {
      text += "\n## Miss ratio by size\n\n" + TableReport.markdown(MissRatioCurve.matrix(runs))
    }
    if let best = MissRatioCurve.best(runs) { text += "\n" + best.prefix(1).uppercased() + best.dropFirst() + "\n" }
    for table in StatisticsTable.tables(runs) {
      let title = table.rows.first?.contains("window mean") == true ? "Window statistics" : "Repeats"
      text += "\n## \(title)\n\n" + TableReport.markdown(table.rows) + notes(table.notes)
    }
    let metric = Metric.hitRatio
    if let comparison = try? ReportComparison(
      [ConfigurationSamples.collect(runs, metric: metric)], metric: metric, baseline: baseline)
    {
      text += "\n## Comparison\n\n" + TableReport.markdown(comparison.rows()) + notes(comparison.footer())
    }
    for chart in charts {
      text += "\n## \(chart.title)\n\n![\(chart.title)](\(chart.file))\n"
    }
    text += "\nAll counts are in [report.csv](report.csv)"
    if first.configuration.window != nil { text += ", every window in [windows.csv](windows.csv)" }
    text += " (`cachelab columns` says what each column means).\n"
    return text
  }

  /// The trace, its totals and the run's mode as a list.
  static func header(_ runs: [RunResult]) -> String {
    guard let first = runs.first else { return "" }
    let configuration = first.configuration
    var text = "- trace: `\(configuration.tracePath)` (\(configuration.trace))\n"
    text += "- requests: \(first.replayedRequests - first.otherRows)"
    if first.otherRows > 0 { text += " + \(first.otherRows) put, delete, event and origin rows" }
    if first.warmupRequests > 0 { text += " (\(first.warmupRequests) warm-up)" }
    text += "\n"
    if let summary = first.summary {
      text += "- distinct objects: \(summary.uniqueObjects)"
      if !configuration.ignoreSize { text += "; working set: \(ByteCount.format(summary.workingSetBytes))" }
      text += "\n"
    }
    text += "- mode: \(configuration.ignoreSize ? "objects (every size 1; sizes count objects)" : "bytes")"
    if runs.count > 1 {
      text += "; \(runs.count) repeats, seeds \(configuration.seed)…\(configuration.seed + UInt64(runs.count - 1))"
    }
    if let window = configuration.window { text += "; windows of \(window)" }
    text += "\n"
    // Engines made by one invocation share a model; a merged report may hold several.
    var models: [(profile: String, spec: String)] = []
    for engine in first.engines where !models.contains(where: { $0.spec == engine.configuration.latency.description }) {
      models.append((engine.configuration.latency.profile, engine.configuration.latency.description))
    }
    for model in models {
      text += "- latency model: \(model.profile) (`\(model.spec)`; see docs/latency.md)\n"
    }
    return text
  }

  static func notes(_ lines: [String]) -> String {
    lines.isEmpty ? "" : "\n" + lines.map { "- \($0)\n" }.joined()
  }
}
