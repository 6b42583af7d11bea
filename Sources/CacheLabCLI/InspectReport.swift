import Analysis
import CacheCore
import Reports

/// `cachelab inspect --report DIR`: the inspection as a Markdown summary (the terminal's
/// tables), its CSV, and SVG charts — reuse distances, object sizes and, for HTTP traces, the
/// request rate and the observed hit ratio over trace time. Written as `run --report` writes:
/// all files together, and files an earlier inspection left that this one does not write go.
enum InspectReport {
  /// Every file an inspection report folder may hold.
  static let ownedFiles = [
    "README.md", "inspection.csv", "reuse-distance.svg", "object-sizes.svg", "request-rate.svg",
    "observed-hit-ratio.svg",
  ]

  /// The first line of `inspection.csv`, by which a folder is known to hold an inspection.
  static let csvHeader = "section,name,low,high,value"

  /// Whether `directory` holds an inspection report: an `inspection.csv` with its header. Reads one line.
  static func holdsAnInspection(_ directory: String) -> Bool {
    ReportDirectory.startsWith(directory + "/inspection.csv", csvHeader)
  }

  /// Writes the report of `inspection` of `trace` (described as `label`) into `directory`
  /// (created if missing).
  static func write(_ inspection: TraceInspection, trace: String, label: String, to directory: String)
    throws(FileError)
  {
    try makeDirectories(directory, purpose: "report directory")
    let replaces = holdsAnInspection(directory)
    var files: [(name: String, text: String)] = [("inspection.csv", Inspect.csv(inspection))]
    var charts: [(file: String, title: String)] = []
    func add(_ file: String, _ chart: SVGChart?) {
      guard let chart else { return }
      files.append((file, chart.render()))
      charts.append((file, chart.title))
    }
    let name = ReportDirectory.fileName(trace)
    add("reuse-distance.svg", histogramChart(inspection, reuse: true, name: name))
    add("object-sizes.svg", histogramChart(inspection, reuse: false, name: name))
    if let http = inspection.http {
      add("request-rate.svg", rateChart(http))
      add("observed-hit-ratio.svg", observedChart(http))
    }
    files.append(("README.md", markdown(inspection, trace: label, charts: charts)))
    try ReportDirectory.writeTogether(files, to: directory, removingStale: replaces ? ownedFiles : [])
  }

  /// The Markdown summary: the same tables as the terminal, then the charts.
  static func markdown(_ inspection: TraceInspection, trace: String, charts: [(file: String, title: String)])
    -> String
  {
    var text = "# CacheLab inspection\n\n- trace: `\(trace)`\n\n## Summary\n\n"
    text += TableReport.markdown([["figure", "value"]] + Inspect.summaryRows(inspection))
    let reuse = Inspect.histogramRows(inspection, reuse: true)
    if !reuse.isEmpty {
      text += "\n## Reuse distance\n\n"
      text += TableReport.markdown([["distinct objects in between", "re-requests"]] + reuse)
    }
    let sizes = Inspect.histogramRows(inspection, reuse: false)
    if !sizes.isEmpty {
      text += "\n## Object sizes\n\n" + TableReport.markdown([["object size", "objects"]] + sizes)
    }
    if let http = inspection.http {
      text += "\n## HTTP\n\n" + Inspect.httpHeadline(http) + ".\n\n"
      let rows = Inspect.httpTable(http).map { row in row[1].isEmpty ? ["**\(row[0])**", "", ""] : row }
      text += TableReport.markdown([["", "requests", "share"]] + rows)
      text += "\n" + Inspect.httpObserved(http).prefix(1).uppercased() + Inspect.httpObserved(http).dropFirst() + ".\n"
      let (length, rate) = Inspect.rateRows(http)
      if rate.count > 1 {
        text += "\n### Request rate per \(Inspect.duration(length)) of trace time\n\n" + TableReport.markdown(rate)
      }
    }
    for chart in charts { text += "\n## \(chart.title)\n\n![\(chart.title)](\(chart.file))\n" }
    text += "\nEvery figure is in [inspection.csv](inspection.csv) (section,name,low,high,value).\n"
    return text
  }

  /// The cumulative share of re-requests (or objects) by power-of-two bucket; nil when empty.
  static func histogramChart(_ inspection: TraceInspection, reuse: Bool, name: String) -> SVGChart? {
    let counts = reuse ? inspection.reuseHistogram : inspection.sizeHistogram
    let total = counts.reduce(0, +)
    guard total > 0, let last = counts.lastIndex(where: { $0 > 0 }) else { return nil }
    let first = counts.firstIndex { $0 > 0 } ?? 0
    var points: [(x: Double, y: Double)] = []
    var sum: Int64 = 0
    for index in 0...last {
      sum += counts[index]
      if index >= first { points.append((x: Double(index), y: Double(sum) / Double(total))) }
    }
    var chart = SVGChart(
      title: (reuse ? "Reuse distance CDF — " : "Object size CDF — ") + name,
      xLabel: reuse ? "reuse distance (distinct objects in between)" : "object size",
      yLabel: reuse ? "share of re-requests" : "share of objects",
      series: [SVGChart.Series(name: reuse ? "re-requests" : "objects", points: points)])
    chart.steps = true
    chart.yRange = 0...1
    chart.formatX = { value in
      let index = Int(value.rounded())
      guard abs(value - Double(index)) < 1e-9, index >= 0 else { return "" }
      let low = Inspect.bucketRange(index, reuse: reuse).0
      return reuse ? SVGChart.compact(Double(low)) : SVGChart.bytes(Double(low))
    }
    return chart
  }

  /// Requests per second over trace time, in up to 120 round intervals; nil with under two.
  static func rateChart(_ http: HTTPInspection) -> SVGChart? {
    let (length, intervals) = http.rate(rows: 120)
    guard intervals.count > 1 else { return nil }
    let points = intervals.map { (x: Double($0.start), y: Double($0.requests) / Double(length)) }
    var chart = SVGChart(
      title: "Request rate per \(Inspect.duration(length))", xLabel: "trace time (s since the first request)",
      yLabel: "requests per second", series: [SVGChart.Series(name: "requests/s", points: points)])
    chart.steps = true
    return chart
  }

  /// The share of requests the trace's own cache served, per interval that has observed
  /// outcomes; nil when fewer than two intervals have them.
  static func observedChart(_ http: HTTPInspection) -> SVGChart? {
    let (length, intervals) = http.rate(rows: 120)
    let points = intervals.filter { $0.observedKnown > 0 }.map {
      (x: Double($0.start), y: Double($0.observedHits) / Double($0.observedKnown))
    }
    guard points.count > 1 else { return nil }
    var chart = SVGChart(
      title: "Observed hit ratio per \(Inspect.duration(length))", xLabel: "trace time (s since the first request)",
      yLabel: "observed hit ratio (%)", series: [SVGChart.Series(name: "served by the trace's cache", points: points)])
    chart.steps = true
    chart.yRange = 0...1
    chart.formatY = { value in SVGChart.compact(value * 100) }
    return chart
  }
}
