import CacheCore
import Replay

/// The CSV report: a header of ``ReportColumn`` names and one row per (trace, policy,
/// capacity), quoted per RFC 4180.
public enum CSVReport {
  /// The report text for `runs`.
  public static func render(_ runs: [RunResult], columns: [ReportColumn] = ReportColumn.standard) -> String {
    var text = columns.map(\.name).joined(separator: ",") + "\n"
    for row in ReportRow.rows(runs) {
      text += columns.map { quote($0.value(of: row)) }.joined(separator: ",") + "\n"
    }
    return text
  }

  /// Writes the report for `runs` to `path` atomically (a temporary file renamed into place).
  public static func write(_ runs: [RunResult], to path: String, columns: [ReportColumn] = ReportColumn.standard)
    throws(FileError)
  {
    let file = try AtomicFileWriter(path: path)
    try file.write(render(runs, columns: columns))
    try file.commit()
  }

  /// `field` as a CSV cell (``CSVCell/quoted(_:)``).
  public static func quote(_ field: String) -> String { CSVCell.quoted(field) }
}
