import CacheCore
import Reports

/// The baseline cut into what one process measures: one policy (at all its sizes) or one
/// preset, of one run (seed) of one report — a report of its own, cells renumbered, traces
/// located — so that each measurement is short and a build that cannot replay one policy
/// loses only that policy. O(rows).
public struct SpeedPlan: Sendable {
  /// One configuration whose speed is judged (a policy at one size, or a preset).
  public struct Configuration: Sendable {
    /// The baseline report it comes from.
    public var report: String
    /// Display name (`lru @ 0.01`, `preset:sdwebimage`).
    public var label: String
    /// The policy with parameters and admission, or the preset label: what one process replays.
    public var group: String
  }

  /// One process's work.
  public struct Unit: Sendable {
    /// The baseline report's file name (the unit is written under it).
    public var fileName: String
    /// Index of the run (seed) within its report.
    public var run: Int
    /// The policy or preset it replays.
    public var group: String
    /// Index of the report in ``reports``.
    public var report: Int
    /// The report text: the baseline's header and this unit's rows.
    public var text: String
    /// The identity-column values of each row (as the replay writes them back) and the
    /// configuration it measures.
    public var configurations: [[String]: Int]
  }

  /// The baseline reports, in order.
  public var reports: [String]
  public var configurations: [Configuration]
  /// Units by report, then run, in row order.
  public var units: [[[Unit]]]

  /// The plan for `tables` (each rebuilt into runs already), with each trace path replaced
  /// by `locate(path)` when that finds it.
  public init(_ tables: [ReportTable], locate: (String) -> String?) throws(FileError) {
    reports = tables.map(\.path)
    configurations = []
    units = []
    var index: [[String]: Int] = [:]
    for (reportIndex, table) in tables.enumerated() {
      let labels = Dictionary(
        try ConfigurationSamples.collect(table, metric: Metric.named("requests_per_second")!).map {
          ($0.key, $0.label)
        },
        uniquingKeysWith: { first, _ in first })
      let identity = ReportStatistics.identity.map { table.header.firstIndex(of: $0) }
      let traceColumn = try table.column("trace")
      let (cellColumn, cellsColumn) = (try table.column("cell"), try table.column("cells"))
      let fileName = String(table.path.split(separator: "/").last ?? Substring(table.path))
      var reportUnits: [[Unit]] = []
      for (runIndex, run) in try ReportReplay.runs(table).enumerated() {
        var groups: [String] = []
        var rowsByGroup: [String: [[String]]] = [:]
        for cell in run.expected.keys.sorted() {
          let row = run.expected[cell]!
          let group = Self.group(of: row, table)
          if rowsByGroup[group] == nil { groups.append(group) }
          rowsByGroup[group, default: []].append(row)
        }
        var runUnits: [Unit] = []
        for group in groups {
          var rows = rowsByGroup[group]!
          var measured: [[String]: Int] = [:]
          for position in rows.indices {
            let key = identity.map { $0.map { rows[position][$0] } ?? "" }
            if index[[table.path] + key] == nil {
              index[[table.path] + key] = configurations.count
              configurations.append(Configuration(report: table.path, label: labels[key] ?? group, group: group))
            }
            let configuration = index[[table.path] + key]!
            rows[position][traceColumn] = locate(rows[position][traceColumn]) ?? rows[position][traceColumn]
            rows[position][cellColumn] = String(position)
            rows[position][cellsColumn] = String(rows.count)
            measured[identity.map { $0.map { rows[position][$0] } ?? "" }] = configuration
          }
          let text = ReportTable(path: table.path, header: table.header, rows: rows).render()
          runUnits.append(
            Unit(
              fileName: fileName, run: runIndex, group: group, report: reportIndex, text: text,
              configurations: measured))
        }
        reportUnits.append(runUnits)
      }
      units.append(reportUnits)
    }
  }

  /// What one process of `row` replays: the preset label, or the policy with its
  /// parameters and admission.
  static func group(of row: [String], _ table: ReportTable) -> String {
    let policy = table.value(row, "policy") ?? ""
    if ReportRowKind(policyCell: policy).isEngine { return policy }
    let params = table.value(row, "params") ?? ""
    let admission = table.value(row, "admission") ?? ""
    return (params.isEmpty ? policy : "\(policy):\(params)") + (admission.isEmpty ? "" : "+\(admission)")
  }

  /// The units of round `round`: each report's run `round mod runs`.
  public func units(ofRound round: Int) -> [Unit] {
    units.flatMap { runs in runs.isEmpty ? [] : runs[round % runs.count] }
  }
}
