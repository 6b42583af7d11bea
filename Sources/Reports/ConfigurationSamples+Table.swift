import CacheCore
import Stats

extension ConfigurationSamples {
  /// The configurations of a report read back from `table`: a run report (one row per
  /// repeat; windows only as their summary columns) or a window-series file (one row per
  /// window, so the windows can be paired).
  ///
  /// - Throws: ``FileError`` when the metric is missing or empty, or a window-series file is
  ///   asked for a metric it does not hold.
  public static func collect(_ table: ReportTable, metric: Metric) throws(FileError) -> [ConfigurationSamples] {
    let isSeries = table.header.contains(WindowSeries.indexColumn)
    if isSeries, !metric.hasWindows {
      throw FileError(
        path: table.path,
        "a window-series file holds \(Metric.all.filter(\.hasWindows).map(\.name).joined(separator: ", ")), not \(metric.name)"
      )
    }
    guard isSeries || table.header.contains(metric.name) else {
      throw FileError(
        path: table.path, "the report has no '\(metric.name)' column; metrics: \(Metric.names.joined(separator: ", "))")
    }
    var result: [ConfigurationSamples] = []
    for group in ReportStatistics.groups(table) {
      let first = group.rows[0]
      var samples = describe(source: table.path, value: { table.value(first, $0) })
      if isSeries {
        try readSeries(group, table, metric, into: &samples)
      } else {
        try readRepeats(group, table, metric, into: &samples)
      }
      result.append(samples)
    }
    return result
  }

  private static func seed(_ row: [String], _ table: ReportTable, _ position: Int) -> UInt64 {
    table.value(row, "seed").flatMap { UInt64($0) } ?? UInt64(position)
  }

  private static func readRepeats(
    _ group: ReportStatistics.Group, _ table: ReportTable, _ metric: Metric, into samples: inout ConfigurationSamples
  ) throws(FileError) {
    for (position, row) in group.rows.enumerated() {
      let column = { (name: String) in table.value(row, name).flatMap(Double.init) }
      guard let value = column(metric.name), value.isFinite else {
        let text = table.value(row, metric.name) ?? ""
        throw FileError(
          path: table.path,
          text.isEmpty
            ? "'\(metric.name)' is empty for \(samples.label)"
            : "'\(metric.name)' is '\(TerminalText.safe(text))' for \(samples.label), not a number")
      }
      let parts = metric.parts?(column).map { (numerator: $0.0, denominator: $0.1) }
      if let parts, parts.numerator < 0 || parts.denominator < 0 || parts.numerator > parts.denominator {
        throw FileError(
          path: table.path,
          "the counts behind '\(metric.name)' for \(samples.label) are \(parts.numerator) of \(parts.denominator): counts cannot be negative or exceed their total"
        )
      }
      samples.repeats.append(Repeat(seed: seed(row, table, position), value: value, parts: parts))
    }
    let first = group.rows[0]
    let number = { (name: String) in table.value(first, name).flatMap(Double.init) }
    if metric.name == "hit_ratio", let spec = table.value(first, "window"), !spec.isEmpty,
      let mean = number("window_hit_ratio_mean"), let low = number("window_hit_ratio_ci95_low"),
      let high = number("window_hit_ratio_ci95_high"), let batches = (number("window_batches") ?? number("windows"))
    {
      // The interval is clipped to 0…1 on at most one side: the other gives the half-width.
      let count = Int(batches)
      let error =
        count > 1
        ? max(mean - low, high - mean) / SampleSummary.tQuantile(0.95, degreesOfFreedom: Double(count - 1)) : 0
      samples.windows = .summary(spec: spec, mean: mean, standardError: error, batches: count)
    }
  }

  private static func readSeries(
    _ group: ReportStatistics.Group, _ table: ReportTable, _ metric: Metric, into samples: inout ConfigurationSamples
  ) throws(FileError) {
    var seeds: [UInt64] = []
    var bySeed: [UInt64: [(numerator: Double, denominator: Double, counted: Bool, number: Int)]] = [:]
    // Windows with no value of a latency metric (a tier that answered nothing there).
    var valueless: [UInt64: Int] = [:]
    for (position, row) in group.rows.enumerated() {
      let column = { (name: String) in table.value(row, name).flatMap(Double.init) }
      let seed = seed(row, table, position)
      if bySeed[seed] == nil {
        seeds.append(seed)
        bySeed[seed] = []
        valueless[seed] = 0
      }
      let number = column(WindowSeries.indexColumn).map { Int($0) } ?? bySeed[seed, default: []].count
      let counted = table.value(row, "in_statistics") != "false"
      // A latency figure is the window's own value; a window without one is left out.
      if metric.parts == nil {
        guard table.header.contains(metric.name) else {
          throw FileError(path: table.path, "the window-series file has no '\(metric.name)' column")
        }
        guard let value = column(metric.name), value.isFinite else {
          valueless[seed, default: 0] += 1
          continue
        }
        bySeed[seed, default: []].append((value, 1, counted, number))
        continue
      }
      guard let parts = metric.parts?(column), parts.1 > 0 else {
        throw FileError(path: table.path, "a window of \(samples.label) lacks the counts of '\(metric.name)'")
      }
      bySeed[seed, default: []].append((parts.0, parts.1, counted, number))
    }
    guard !seeds.isEmpty, seeds.allSatisfy({ !(bySeed[$0] ?? []).isEmpty }) else {
      throw FileError(path: table.path, "'\(metric.name)' is empty in every window of \(samples.label)")
    }
    for seed in seeds {
      let windows = bySeed[seed] ?? []
      let numerator = windows.reduce(0) { $0 + $1.numerator }
      let denominator = windows.reduce(0) { $0 + $1.denominator }
      samples.repeats.append(
        Repeat(seed: seed, value: numerator / denominator, parts: (numerator: numerator, denominator: denominator)))
    }
    let windows = bySeed[seeds[0]] ?? []
    let counted = windows.filter(\.counted)
    samples.windows = .series(
      spec: samples.key[ReportStatistics.identity.firstIndex(of: "window") ?? 0], numerators: counted.map(\.numerator),
      denominators: counted.map(\.denominator),
      excluded: windows.count - counted.count + (valueless[seeds[0]] ?? 0))
    samples.windowNumbers = counted.map(\.number)
  }
}
