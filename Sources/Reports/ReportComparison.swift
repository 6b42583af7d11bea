import CacheCore
import Stats

/// Side-by-side comparison of configurations from reports: each candidate against its
/// baseline on one metric, with the difference, its 95 % confidence interval and Welch's
/// t-test p-value.
public struct ReportComparison: Sendable {
  /// One candidate against its baseline.
  public struct Line: Sendable {
    public var baseline: String
    public var candidate: String
    public var a: SampleSummary
    public var b: SampleSummary
    public var kind: ReportStatistics.SampleKind
    public var test: WelchTest
  }

  public let metric: String
  public let lines: [Line]

  /// Compares the configurations of `tables` on `metric`.
  ///
  /// One table: every configuration against the first. Several tables each holding one
  /// configuration: each against the first table's. Otherwise configurations are matched by
  /// their identity columns and each table's is compared with the first table's.
  ///
  /// - Throws: ``FileError`` when the metric is missing or nothing can be paired.
  public init(_ tables: [ReportTable], metric: String) throws(FileError) {
    guard let first = tables.first else { throw FileError(path: "compare", "nothing to compare") }
    for table in tables where !table.header.contains(metric) {
      throw FileError(
        path: table.path,
        "the report has no '\(metric)' column; metrics: \(ReportStatistics.metrics.joined(separator: ", "))")
    }
    self.metric = metric
    var pairs: [(ReportStatistics.Group, ReportTable, ReportStatistics.Group, ReportTable)] = []
    let grouped = tables.map { ($0, ReportStatistics.groups($0)) }
    if tables.count == 1 {
      let groups = grouped[0].1
      guard groups.count >= 2 else {
        throw FileError(path: first.path, "only one configuration: nothing to compare it with")
      }
      for group in groups.dropFirst() { pairs.append((groups[0], first, group, first)) }
    } else if grouped.allSatisfy({ $0.1.count == 1 }) {
      for (table, groups) in grouped.dropFirst() { pairs.append((grouped[0].1[0], first, groups[0], table)) }
    } else {
      for (table, groups) in grouped.dropFirst() {
        for group in groups {
          if let base = grouped[0].1.first(where: { $0.key == group.key }) { pairs.append((base, first, group, table)) }
        }
      }
      guard !pairs.isEmpty else {
        throw FileError(path: tables[1].path, "no configuration matches one of \(first.path)")
      }
    }
    var lines: [Line] = []
    for (base, baseTable, candidate, candidateTable) in pairs {
      guard let (a, kindA) = ReportStatistics.summary(base, metric, in: baseTable),
        let (b, _) = ReportStatistics.summary(candidate, metric, in: candidateTable)
      else {
        throw FileError(path: candidateTable.path, "'\(metric)' is empty for \(candidate.label) or \(base.label)")
      }
      let baseName = tables.count > 1 && base.label == candidate.label ? "\(baseTable.path): \(base.label)" : base.label
      let candidateName =
        tables.count > 1 && base.label == candidate.label
        ? "\(candidateTable.path): \(candidate.label)" : candidate.label
      lines.append(
        Line(baseline: baseName, candidate: candidateName, a: a, b: b, kind: kindA, test: WelchTest(a, b)))
    }
    self.lines = lines
  }

  /// The comparison as an aligned table with a legend.
  public func render() -> String {
    var rows: [[String]] = [
      ["baseline → candidate", "n", metric, "candidate", "difference", "95 % CI", "p (Welch)"]
    ]
    for line in lines {
      rows.append([
        "\(line.baseline) → \(line.candidate)", "\(line.a.count)/\(line.b.count) \(line.kind.rawValue)",
        Self.format(line.a.mean) + " ± " + Self.format(line.a.halfWidth),
        Self.format(line.b.mean) + " ± " + Self.format(line.b.halfWidth),
        (line.test.difference >= 0 ? "+" : "") + Self.format(line.test.difference),
        "[" + Self.format(line.test.difference - line.test.halfWidth) + ", "
          + Self.format(line.test.difference + line.test.halfWidth) + "]",
        line.test.pValue.map(Self.probability) ?? "n/a",
      ])
    }
    return TableReport.align(rows)
  }

  /// The comparison as CSV.
  public func csv() -> String {
    var text =
      "metric,baseline,candidate,samples,n_baseline,mean_baseline,ci95_baseline,n_candidate,mean_candidate,ci95_candidate,difference,difference_ci95_low,difference_ci95_high,t,df,p_value\n"
    for line in lines {
      let fields: [String] = [
        metric, line.baseline, line.candidate, line.kind.rawValue, String(line.a.count), Self.number(line.a.mean),
        Self.number(line.a.halfWidth), String(line.b.count), Self.number(line.b.mean), Self.number(line.b.halfWidth),
        Self.number(line.test.difference), Self.number(line.test.difference - line.test.halfWidth),
        Self.number(line.test.difference + line.test.halfWidth), Self.number(line.test.t),
        Self.number(line.test.degreesOfFreedom), line.test.pValue.map(Self.number) ?? "",
      ]
      text += fields.map(CSVReport.quote).joined(separator: ",") + "\n"
    }
    return text
  }

  static func format(_ value: Double) -> String {
    abs(value) >= 1000 ? Decimal.fixed(value, 0) : Decimal.fixed(value, abs(value) >= 10 ? 2 : 4)
  }

  static func number(_ value: Double) -> String {
    value.isFinite
      ? (abs(value) < 1e-4 && value != 0 ? SVGChart.string(format: value) : Decimal.fixed(value, 6)) : "\(value)"
  }

  static func probability(_ p: Double) -> String {
    p < 1e-4 ? (p == 0 ? "< 1e-300" : SVGChart.string(format: p)) : Decimal.fixed(p, 4)
  }
}
