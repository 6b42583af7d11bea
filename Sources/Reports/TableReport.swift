import CacheCore
import Replay

/// A human-readable, column-aligned summary of a run for the terminal.
public enum TableReport {
  /// The table for `run`: one row per (policy, capacity), then the engines' table.
  public static func render(_ run: RunResult) -> String {
    var text = run.caches.isEmpty ? "" : align(cacheRows(run))
    if !run.engines.isEmpty {
      if !text.isEmpty { text += "\n" }
      text += align(engineRows(run))
    }
    return text
  }

  /// The policy caches' rows (header first).
  public static func cacheRows(_ run: RunResult) -> [[String]] {
    let objectMode = run.configuration.ignoreSize
    var rows: [[String]] = [
      ["policy", "capacity", "hit ratio", "byte hit ratio", "misses", "miss bytes", "M req/s"]
    ]
    for cache in run.caches {
      let capacity = objectMode ? "\(cache.capacity) obj" : ByteCount.format(cache.capacity)
      rows.append([
        cache.policy.label,
        cache.capacitySpec.needsWorkingSet ? "\(capacity) (\(cache.capacitySpec))" : capacity,
        Decimal.fixed(cache.hitRatio * 100, 2) + " %",
        objectMode ? "-" : Decimal.fixed(cache.byteHitRatio * 100, 2) + " %",
        String(cache.counters.misses),
        objectMode ? "-" : ByteCount.format(cache.counters.missBytes),
        Decimal.fixed(cache.requestsPerSecond(replayed: run.replayedRequests) / 1e6, 2),
      ])
    }
    return rows
  }

  /// The engines of `run` (header first): hit ratios per tier, HTTP outcomes, origin traffic and latency.
  public static func engineRows(_ run: RunResult) -> [[String]] {
    var rows: [[String]] = [
      [
        "engine", "hit ratio", "memory", "disk", "expired", "304", "200", "stale", "origin", "disk writes",
        "purges", "p50 µs", "p99 µs",
      ]
    ]
    for engine in run.engines {
      let stats = engine.stats
      let percent = { (part: Int64) in
        Decimal.fixed(stats.requests > 0 ? Double(part) * 100 / Double(stats.requests) : 0, 2) + " %"
      }
      rows.append([
        engine.label, percent(stats.hits), percent(stats.memoryHits), percent(stats.diskHits), String(stats.expired),
        String(stats.revalidated304), String(stats.revalidated200), String(stats.staleServed),
        ByteCount.format(stats.originBytes), String(stats.disk.writes), String(stats.purges),
        String(stats.latency.valueAtPercentile(50)), String(stats.latency.valueAtPercentile(99)),
      ])
    }
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
