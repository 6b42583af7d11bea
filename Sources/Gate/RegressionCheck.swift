import CacheCore
import Replay
import Reports

/// Compares a replayed run with the baseline rows it must reproduce: every deterministic
/// column exactly (or the `*_ratio` columns within a tolerance).
public enum RegressionCheck {
  /// A deterministic value that changed.
  public struct Difference: Sendable, CustomStringConvertible {
    public var row: String
    public var column: String
    public var expected: String
    public var actual: String
    public var description: String { "\(row): \(column) \(expected) -> \(actual)" }
  }

  /// Columns whose values depend on timing and are not compared exactly.
  public static let timingColumns = Set(ReportColumn.standard.filter(\.isTiming).map(\.name))

  /// The deterministic differences between `run`'s expected rows and `result`. With
  /// `ratioTolerance`, only the `*_ratio` columns are compared, each within that absolute
  /// difference (for traces that are regenerated rather than fixed).
  public static func differences(
    _ run: ReportReplay.Run, _ result: RunResult, baselineHeader: [String], ratioTolerance: Double? = nil
  ) -> [Difference] {
    let columns = ReportColumn.standard
    var differences: [Difference] = []
    for row in ReportRow.rows([result]) {
      guard let expected = run.expected[row.cell] else { continue }
      let label = "\(row.policyName) @ \(row.capacitySpec) (seed \(result.configuration.seed))"
      for column in columns where !timingColumns.contains(column.name) {
        guard let index = baselineHeader.firstIndex(of: column.name) else { continue }
        let actual = column.value(of: row)
        if let ratioTolerance {
          guard column.name.hasSuffix("_ratio"), let before = Double(expected[index]), let after = Double(actual),
            abs(before - after) > ratioTolerance
          else { continue }
          differences.append(Difference(row: label, column: column.name, expected: expected[index], actual: actual))
        } else if expected[index] != actual {
          differences.append(Difference(row: label, column: column.name, expected: expected[index], actual: actual))
        }
      }
    }
    return differences
  }

  /// Checks a baseline report's header: an older layout (the standard columns up to some
  /// point, in order) is accepted and returns the columns it lacks; anything else — a column
  /// missing in between, an unknown or repeated column — is refused.
  ///
  /// - Throws: ``FileError`` naming `path:1`.
  public static func missingColumns(_ table: ReportTable) throws(FileError) -> [String] {
    let standard = ReportColumn.standard.map(\.name)
    if let unknown = table.header.first(where: { !standard.contains($0) }) {
      throw FileError(path: "\(table.path):1", "unknown column '\(unknown)' (not a CacheLab report column)")
    }
    let prefix = Array(standard.prefix(table.header.count))
    guard table.header == prefix else {
      let last = table.header.compactMap { standard.firstIndex(of: $0) }.max() ?? 0
      let missing = standard[...last].filter { !table.header.contains($0) }
      let repeated = table.header.filter { name in table.header.filter { $0 == name }.count > 1 }
      let problem =
        !repeated.isEmpty
        ? "column '\(repeated[0])' appears twice"
        : missing.isEmpty
          ? "the columns are not in CacheLab's order" : "missing columns \(missing.joined(separator: ", "))"
      throw FileError(
        path: "\(table.path):1",
        "\(problem); a baseline holds every report column up to its last, as cachelab wrote it (rewrite it with cachelab regress --update)"
      )
    }
    return Array(standard.dropFirst(table.header.count))
  }
}
