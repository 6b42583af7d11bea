import CacheCore
import Stats

/// Groups report rows by configuration and summarises a metric over each group's samples:
/// repeated runs (rows that differ only in seed) or, for a single run, its time windows.
public enum ReportStatistics {
  /// Columns that identify a configuration (the seed and timing are what may vary).
  public static let identity = [
    "trace", "format", "policy", "params", "capacity_spec", "ignore_size", "warmup", "window",
  ]

  /// Metrics worth summarising, in display order.
  public static let metrics = [
    "hit_ratio", "byte_hit_ratio", "miss_ratio", "misses", "miss_bytes", "requests_per_second", "memory_hit_ratio",
    "disk_hit_ratio", "stale_served", "origin_bytes", "latency_p50", "latency_p99",
  ]

  /// The rows of one configuration.
  public struct Group: Sendable {
    /// The identity columns' values.
    public var key: [String]
    /// A short name: policy (or engine label) and capacity.
    public var label: String
    public var rows: [[String]]
  }

  /// How a group's metric was sampled.
  public enum SampleKind: String, Sendable {
    case repeats, windows
  }

  /// The configurations of `table`, in first-appearance order.
  public static func groups(_ table: ReportTable) -> [Group] {
    let indices = identity.map { table.header.firstIndex(of: $0) }
    var order: [[String]] = []
    var byKey: [[String]: Group] = [:]
    for row in table.rows {
      let key = indices.map { $0.map { row[$0] } ?? "" }
      if byKey[key] == nil {
        order.append(key)
        let policy = table.value(row, "policy") ?? "?"
        let capacity = table.value(row, "capacity_spec") ?? table.value(row, "capacity") ?? ""
        let params = table.value(row, "params") ?? ""
        let name = params.isEmpty || policy.hasPrefix("preset:") || policy == "engine" ? policy : "\(policy):\(params)"
        byKey[key] = Group(key: key, label: capacity.isEmpty ? name : "\(name) @ \(capacity)", rows: [])
      }
      byKey[key]?.rows.append(row)
    }
    return order.compactMap { byKey[$0] }
  }

  /// The summary of `metric` over `group`: its values across repeated rows, or — for a hit
  /// ratio of a single windowed run — the per-window mean, deviation and count. Nil when the
  /// metric is absent or empty.
  public static func summary(_ group: Group, _ metric: String, in table: ReportTable) -> (
    SampleSummary, SampleKind
  )? {
    guard let column = table.header.firstIndex(of: metric) else { return nil }
    if group.rows.count == 1, metric == "hit_ratio", let row = group.rows.first,
      let count = table.value(row, "windows").flatMap(Int.init), count > 0,
      let mean = table.value(row, "window_hit_ratio_mean").flatMap(Double.init),
      let deviation = table.value(row, "window_hit_ratio_sd").flatMap(Double.init)
    {
      return (SampleSummary(count: count, mean: mean, standardDeviation: deviation), .windows)
    }
    let values = group.rows.compactMap { Double($0[column]) }.filter(\.isFinite)
    guard !values.isEmpty, values.count == group.rows.count else { return nil }
    return (SampleSummary(values), .repeats)
  }
}
