import CacheCore

/// Groups report rows by configuration: rows that differ only in seed (repeats) or, in a
/// window-series file, also in window.
public enum ReportStatistics {
  /// Columns that identify a configuration (the seed and timing are what may vary).
  public static let identity = [
    "trace", "format", "policy", "params", "admission", "capacity_spec", "ignore_size", "warmup", "window",
  ]

  /// The rows of one configuration.
  public struct Group: Sendable {
    /// The identity columns' values.
    public var key: [String]
    public var rows: [[String]]
  }

  /// The configurations of `table`, in first-appearance order. O(rows).
  public static func groups(_ table: ReportTable) -> [Group] {
    let indices = identity.map { table.header.firstIndex(of: $0) }
    var order: [[String]] = []
    var byKey: [[String]: Group] = [:]
    for row in table.rows {
      let key = indices.map { $0.map { row[$0] } ?? "" }
      if byKey[key] == nil {
        order.append(key)
        byKey[key] = Group(key: key, rows: [])
      }
      byKey[key]?.rows.append(row)
    }
    return order.compactMap { byKey[$0] }
  }
}
