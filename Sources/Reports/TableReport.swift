import CacheCore
import Replay

/// A human-readable, column-aligned summary of a run for the terminal (and, through
/// ``markdown(_:)``, the report's Markdown): rows labelled by policy or engine, columns from
/// the report column registry, each titled and printed as ``ReportColumn`` declares.
public enum TableReport {
  /// The policy caches' table: report columns after the policy label.
  public static let cacheColumns = [
    "capacity", "hit_ratio", "byte_hit_ratio", "misses", "miss_bytes", "requests_per_second",
  ]
  /// The engines' table: hit ratios per tier, HTTP outcomes, origin traffic and latency.
  public static let engineColumns = [
    "hit_ratio", "memory_hit_ratio", "disk_hit_ratio", "expired", "revalidated_304", "revalidated_200",
    "stale_served", "origin_bytes", "disk_writes", "purges", "latency_p50", "latency_p99",
  ]

  /// The table for `run`: one row per (policy, capacity), then the engines' table.
  public static func render(_ run: RunResult) -> String {
    var text = run.policyRuns.isEmpty ? "" : align(cacheRows(run))
    if !run.engines.isEmpty {
      if !text.isEmpty { text += "\n" }
      text += align(engineRows(run))
    }
    return text
  }

  /// The policy caches' rows (header first).
  public static func cacheRows(_ run: RunResult) -> [[String]] {
    rows(ReportRow.rows([run]).prefix(run.policyRuns.count), label: "policy", columns: cacheColumns)
  }

  /// The engines' rows (header first).
  public static func engineRows(_ run: RunResult) -> [[String]] {
    rows(ReportRow.rows([run]).dropFirst(run.policyRuns.count), label: "engine", columns: engineColumns)
  }

  /// A header of `label` and the columns' titles, then each row's label and cells.
  static func rows(_ reportRows: ArraySlice<ReportRow>, label: String, columns names: [String]) -> [[String]] {
    let columns = names.compactMap(ReportColumn.named)
    var rows = [[label] + columns.map(\.title)]
    for row in reportRows { rows.append([row.result.label] + columns.map { $0.cell(of: row) }) }
    return rows
  }

  /// Pads each column to its widest cell; the first column is left-aligned, the rest right.
  public static func align(_ rows: [[String]]) -> String {
    guard let first = rows.first else { return "" }
    var widths = [Int](repeating: 0, count: first.count)
    for row in rows {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    var lines: [String] = []
    for row in rows {
      var line = ""
      for (column, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        if column > 0 { line += "  " }
        line += column == 0 ? cell + padding : padding + cell
      }
      while line.last == " " { line.removeLast() }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The same rows as a Markdown table (first column left-aligned, the rest right; `|` escaped).
  public static func markdown(_ rows: [[String]]) -> String {
    guard let first = rows.first else { return "" }
    let escape = { (cell: String) in cell.replacingOccurrences("|", with: "\\|") }
    var lines = ["| " + first.map(escape).joined(separator: " | ") + " |"]
    lines.append("|" + first.indices.map { $0 == 0 ? "---|" : "---:|" }.joined())
    for row in rows.dropFirst() { lines.append("| " + row.map(escape).joined(separator: " | ") + " |") }
    return lines.joined(separator: "\n") + "\n"
  }
}
