import Analysis
import ArgumentParser
import CacheCore
import Reports
import Traces

/// `cachelab inspect`: characterises a trace.
struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract:
      "Characterise a trace: requests, objects, working set, one-hit wonders, sizes, reuse distances, Zipf α; HTTP cacheability.",
    discussion: """
      One streaming pass. Reuse distance is the number of distinct objects requested between \
      two requests to the same object (LRU stack distance); the Zipf exponent is a least-squares \
      fit of log frequency against log rank over objects requested at least twice (GSL).

      For a trace with HTTP attributes (har, access-log, w3c, squid, or a cachelab CSV \
      with them) it adds the HTTP side: Cache-Control directives, stated freshness \
      lifetimes, heuristic freshness, validators, Vary and credentials, content classes, \
      methods, statuses and hosts (logs and captures), the request rate over trace time, \
      and what a real cache on the path did (observed outcomes).

      Examples:
        cachelab inspect Traces/zipf-demo.oracleGeneral.bin
        cachelab inspect ../shared/traces/cache2k/web07.trace --format int32-be --output web07.csv
        cachelab inspect app.har --report app-inspection/
      """)

  @Argument(help: ArgumentHelp("The trace file.", valueName: "trace"))
  var trace: String

  @Option(help: ArgumentHelp("Trace format (inferred from the file name when omitted).", valueName: "name[:k=v,...]"))
  var format: String?

  @Option(help: ArgumentHelp("Also write the figures as CSV (section,name,low,high,value).", valueName: "file.csv"))
  var output: String?

  @Option(
    help: ArgumentHelp(
      "Also write a Markdown summary with the tables, inspection.csv and SVG charts into this folder.",
      valueName: "dir"))
  var report: String?

  @Flag(help: "Do not print the progress bar.")
  var quiet = false

  func validate() throws {
    var paths = PathCheck()
    paths.read("trace", format == nil ? TraceSpec.shorthand(trace).path : trace)
    paths.write("--output", output)
    paths.writeFolder("--report", report, files: InspectReport.ownedFiles)
    try paths.check()
    if let report, ReportDirectory.holdsAReport(report) {
      throw ValidationError(
        "--report \(report) holds a run report (report.csv): an inspection would mix with it; choose another folder")
    }
    _ = try CLIErrors.translating { try spec() }
  }

  /// The trace's path and format (`FORMAT:PATH` accepted for the trace).
  func spec() throws -> (path: String, spec: TraceSpec) {
    let (shortFormat, path) = format == nil ? TraceSpec.shorthand(trace) : (nil, trace)
    return (path, try TraceSpec(format: format ?? shortFormat, inferringFrom: path))
  }

  func run() throws {
    try CLIErrors.translating {
      let writer = try output.map { path in try AtomicFileWriter(path: path) }
      let bar = ProgressBar(label: "inspecting", quiet: quiet)
      let (path, spec) = try spec()
      let inspection = try TraceInspection.inspect(path, format: spec) { done, total in bar.update(done, total) }
      bar.finish()
      let label = path + (spec.note.map { " (\(spec.format.name), \($0))" } ?? "")
      print(Self.text(inspection, trace: label), terminator: "")
      if let writer {
        try writer.write(Self.csv(inspection))
        try writer.commit()
        print("wrote \(writer.path)")
      }
      if let report {
        try InspectReport.write(inspection, trace: path, label: label, to: report)
        print("wrote \(report)/README.md")
      }
    }
  }

  static func bucketRange(_ index: Int, reuse: Bool) -> (Int64, Int64) {
    if reuse { return index == 0 ? (0, 0) : (Int64(1) << (index - 1), (Int64(1) << index) - 1) }
    return index == 0 ? (0, 1) : (Int64(1) << index, (Int64(1) << (index + 1)) - 1)
  }

  /// The summary table: requests, bytes, objects, working set, one-hit wonders, duration, sizes, Zipf α.
  static func summaryRows(_ inspection: TraceInspection) -> [[String]] {
    var rows: [[String]] = []
    rows.append([
      "requests",
      "\(inspection.requests)" + (inspection.rows != inspection.requests ? " (\(inspection.rows) rows)" : ""),
    ])
    rows.append(["request bytes", ByteCount.format(inspection.requestBytes)])
    rows.append(["distinct objects", "\(inspection.uniqueObjects)"])
    rows.append(["working set", ByteCount.format(inspection.workingSetBytes)])
    rows.append([
      "one-hit wonders",
      "\(inspection.oneHitWonders) (\(Decimal.fixed(inspection.oneHitWonderRatio * 100, 2)) % of objects)",
    ])
    if inspection.hasTime, inspection.requests > 0 {
      rows.append(["duration", Decimal.fixed(Double(inspection.lastTime - inspection.firstTime) / 1e6, 3) + " s"])
    }
    if let sizes = inspection.sizes {
      rows.append([
        "object size",
        "min \(Int64(sizes.minimum))  p50 \(Int64(sizes.percentile(50)))  p90 \(Int64(sizes.percentile(90)))  p99 \(Int64(sizes.percentile(99)))  max \(Int64(sizes.maximum))  mean \(Decimal.fixed(sizes.mean, 1))",
      ])
    }
    if let alpha = inspection.zipfAlpha {
      rows.append(["Zipf alpha", Decimal.fixed(alpha, 3) + " (R² \(Decimal.fixed(inspection.zipfRSquared ?? 0, 3)))"])
    } else {
      rows.append(["Zipf alpha", "n/a (fewer than 3 objects requested twice)"])
    }
    return rows
  }

  static func text(_ inspection: TraceInspection, trace: String) -> String {
    var text = trace + "\n" + TableReport.align(summaryRows(inspection))
    text += "\nreuse distance (distinct objects in between)   re-requests\n"
    for row in histogramRows(inspection, reuse: true) { text += "  " + row[0].padded(44) + row[1] + "\n" }
    text += "\nobject size                                    objects\n"
    for row in histogramRows(inspection, reuse: false) { text += "  " + row[0].padded(44) + row[1] + "\n" }
    if let http = inspection.http { text += httpText(http) }
    return text
  }

  /// The non-empty buckets of the reuse-distance or object-size histogram as (range, count).
  static func histogramRows(_ inspection: TraceInspection, reuse: Bool) -> [[String]] {
    let counts = reuse ? inspection.reuseHistogram : inspection.sizeHistogram
    return counts.enumerated().filter { $0.element > 0 }.map { index, count in
      let (low, high) = bucketRange(index, reuse: reuse)
      return [reuse ? (low == high ? "\(low)" : "\(low)–\(high)") : "\(low)–\(high) B", "\(count)"]
    }
  }

  static func csv(_ inspection: TraceInspection) -> String {
    var text = "section,name,low,high,value\n"
    func scalar(_ name: String, _ value: String) { text += "summary,\(name),,,\(value)\n" }
    scalar("rows", "\(inspection.rows)")
    scalar("requests", "\(inspection.requests)")
    scalar("request_bytes", "\(inspection.requestBytes)")
    scalar("unique_objects", "\(inspection.uniqueObjects)")
    scalar("working_set_bytes", "\(inspection.workingSetBytes)")
    scalar("one_hit_wonders", "\(inspection.oneHitWonders)")
    scalar("one_hit_wonder_ratio", Decimal.fixed(inspection.oneHitWonderRatio, 6))
    scalar("zipf_alpha", inspection.zipfAlpha.map { Decimal.fixed($0, 6) } ?? "")
    scalar("zipf_r_squared", inspection.zipfRSquared.map { Decimal.fixed($0, 6) } ?? "")
    if let sizes = inspection.sizes {
      for (name, value) in [
        ("min", sizes.minimum), ("p25", sizes.percentile(25)), ("p50", sizes.percentile(50)),
        ("p75", sizes.percentile(75)), ("p90", sizes.percentile(90)), ("p99", sizes.percentile(99)),
        ("max", sizes.maximum), ("mean", sizes.mean),
      ] {
        text += "object_size,\(name),,,\(Decimal.fixed(value, 1))\n"
      }
    }
    for (index, count) in inspection.sizeHistogram.enumerated() {
      let (low, high) = bucketRange(index, reuse: false)
      text += "size_histogram,objects,\(low),\(high),\(count)\n"
    }
    for (index, count) in inspection.reuseHistogram.enumerated() {
      let (low, high) = bucketRange(index, reuse: true)
      text += "reuse_distance,re_requests,\(low),\(high),\(count)\n"
    }
    if let http = inspection.http { text += httpCSV(http) }
    return text
  }
}

extension String {
  fileprivate func padded(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
