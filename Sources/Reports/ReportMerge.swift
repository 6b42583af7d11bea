import CacheCore

/// Joins the reports of a sharded sweep into the report the unsharded sweep writes: rows
/// ordered by trace (first appearance), seed and grid cell, each cell present exactly once,
/// every row of a trace from one sweep (``sweepColumns`` and the shard count agree).
/// O(rows log rows).
public enum ReportMerge {
  /// The columns every row of one trace's shards must share: what defines the sweep.
  public static let sweepColumns = [
    "format", "ignore_size", "warmup", "num_req", "sample_rate", "sample_floor", "ttl", "window", "cells", "grid",
  ]

  /// The merged table of `tables` (written by `run`/`sweep` with `--shard`).
  ///
  /// - Throws: ``FileError`` naming the file for a header that differs from the first one's,
  ///   a missing `cell`/`cells`/`trace`/`seed` column, a row of another sweep (the first
  ///   differing column named), a cell reported twice or missing.
  public static func merge(_ tables: [ReportTable]) throws(FileError) -> ReportTable {
    guard let first = tables.first else { throw FileError(path: "merge", "no reports to merge") }
    for table in tables.dropFirst() where table.header != first.header {
      throw FileError(path: table.path, "its columns differ from those of \(first.path); merge reports of one version")
    }
    let trace = try first.column("trace")
    let seed = try first.column("seed")
    let cell = try first.column("cell")
    let cells = try first.column("cells")

    struct Entry {
      var traceOrder: Int
      var seed: UInt64
      var cell: Int
      var row: [String]
      var path: String
    }
    let shared = sweepColumns.compactMap { name in first.header.firstIndex(of: name).map { (name, $0) } }
    let shard = first.header.firstIndex(of: "shard")
    var sweepOf: [String: (values: [String], path: String)] = [:]
    var traceOrder: [String: Int] = [:]
    var entries: [Entry] = []
    var gridSize: [String: Int] = [:]
    for table in tables {
      for row in table.rows {
        guard let seedValue = UInt64(row[seed]), let cellValue = Int(row[cell]), let size = Int(row[cells]),
          cellValue >= 0, cellValue < size
        else {
          throw FileError(path: table.path, "a row has no valid seed, cell or cells value: \(row.prefix(4))")
        }
        var values = shared.map { row[$0.1] }
        if let shard { values.append(row[shard].split(separator: "/").last.map(String.init) ?? "") }
        if let known = sweepOf[row[trace]] {
          if let differing = values.indices.first(where: { values[$0] != known.values[$0] }) {
            let name = differing < shared.count ? shared[differing].0 : "shard count"
            throw FileError(
              path: table.path,
              "\(name) '\(values[differing])' differs from '\(known.values[differing])' in \(known.path) (trace \(row[trace])): these are not shards of one sweep"
            )
          }
        } else {
          sweepOf[row[trace]] = (values, table.path)
        }
        let order = traceOrder[row[trace]] ?? traceOrder.count
        traceOrder[row[trace]] = order
        let group = row[trace] + "\u{0}" + row[seed]
        if let known = gridSize[group], known != size {
          throw FileError(
            path: table.path, "grid size \(size) differs from \(known) in another report for the same run")
        }
        gridSize[group] = size
        entries.append(Entry(traceOrder: order, seed: seedValue, cell: cellValue, row: row, path: table.path))
      }
    }
    entries.sort { ($0.traceOrder, $0.seed, $0.cell) < ($1.traceOrder, $1.seed, $1.cell) }
    var seen: [String: Set<Int>] = [:]
    for entry in entries {
      let group = entry.row[trace] + "\u{0}" + entry.row[seed]
      guard seen[group, default: []].insert(entry.cell).inserted else {
        throw FileError(
          path: entry.path, "cell \(entry.cell) of \(entry.row[trace]) (seed \(entry.seed)) is in two reports")
      }
    }
    for (group, size) in gridSize.sorted(by: { $0.key < $1.key }) {
      let present = seen[group] ?? []
      let missing = (0..<size).filter { !present.contains($0) }
      guard missing.isEmpty else {
        let name = group.split(separator: "\u{0}").first.map(String.init) ?? group
        throw FileError(
          path: name,
          "cells \(missing.prefix(10).map(String.init).joined(separator: ", "))\(missing.count > 10 ? ", …" : "") of \(size) are in no report; a shard is missing"
        )
      }
    }
    // The merged report is the unsharded one: no row belongs to a shard any more.
    let rows = entries.map { entry in
      var row = entry.row
      if let shard { row[shard] = "" }
      return row
    }
    return ReportTable(path: "merged", header: first.header, rows: rows)
  }
}
