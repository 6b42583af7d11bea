import CacheCore
import Engine
import Policies
import Replay
import Traces

/// Rebuilds the runs that produced a report from its rows (every row carries its full
/// configuration), so a report can be replayed and checked (`cachelab regress`).
public enum ReportReplay {
  /// One run to repeat: its configuration and the report rows it must reproduce, by cell.
  public struct Run: Sendable {
    public var configuration: RunConfiguration
    public var expected: [Int: [String]]
  }

  /// The runs of `table`, one per (trace, format, mode, warm-up, window, seed), in order.
  ///
  /// - Throws: ``FileError`` naming the report for a row that cannot be rebuilt (a custom
  ///   engine, a preset with overridden tiers, an unknown policy) or a grid that is not a
  ///   full policies × sizes product.
  public static func runs(_ table: ReportTable, parallel: Bool = false) throws(FileError) -> [Run] {
    let keyColumns = ["trace", "format", "ignore_size", "warmup", "window", "seed"]
    for name in keyColumns + ["policy", "params", "capacity_spec", "cell", "cells"] { _ = try table.column(name) }
    var order: [[String]] = []
    var rowsByKey: [[String]: [Int]] = [:]
    for (index, row) in table.rows.enumerated() {
      let key =
        keyColumns.map { table.value(row, $0)! }
        + ["num_req", "sample_rate", "sample_floor"].map { table.value(row, $0) ?? "" }
      if rowsByKey[key] == nil { order.append(key) }
      rowsByKey[key, default: []].append(index)
    }
    var result: [Run] = []
    for key in order {
      result.append(try rebuild(key: key, rows: rowsByKey[key]!, table: table, parallel: parallel))
    }
    return result
  }

  /// The run of the rows at `indices` (one key); errors name the line of the row at fault.
  private static func rebuild(key: [String], rows indices: [Int], table: ReportTable, parallel: Bool) throws(FileError)
    -> Run
  {
    // The row being read, for the message; the first row's line for errors about the whole run.
    var location = table.location(ofRow: indices[0])
    let rows = indices.map { table.rows[$0] }
    do throws(ConfigurationError) {
      var policies: [PolicySpec] = []
      var policyNames: [String] = []
      var capacities: [CapacitySpec] = []
      var capacityNames: [String] = []
      var engines: [LabeledEngine] = []
      let ignoreSize = key[2] == "true"
      for (row, index) in zip(rows, indices) {
        location = table.location(ofRow: index)
        let policy = table.value(row, "policy")!
        let params = table.value(row, "params")!
        if policy == "engine" {
          throw ConfigurationError(.invalidValue, "custom engine rows cannot be re-run; use presets in a baseline")
        }
        if policy.hasPrefix("preset:") {
          let spec = try PresetSpec(parsing: String(policy.dropFirst("preset:".count)))
          guard spec.configuration.summary == params else {
            throw ConfigurationError(
              .invalidValue, "\(policy) ran with other tiers than the preset's (\(params)); it cannot be re-run")
          }
          engines.append(LabeledEngine(label: policy, configuration: spec.configuration))
          continue
        }
        let text = params.isEmpty ? policy : policy + ":" + params.replacingOccurrences(";", with: ",")
        let admission = (table.value(row, "admission") ?? "").replacingOccurrences(";", with: ",")
        if !policyNames.contains(text + "+" + admission) {
          policyNames.append(text + "+" + admission)
          policies.append(
            try PolicySpec(parsing: text, admission: admission.isEmpty ? nil : try AdmissionSpec(parsing: admission)))
        }
        let capacity = table.value(row, "capacity_spec")!
        if !capacityNames.contains(capacity) {
          capacityNames.append(capacity)
          capacities.append(try CapacitySpec(parsing: capacity, objectMode: ignoreSize))
        }
      }
      location = table.location(ofRow: indices[0])
      let warmup = try WarmupSpec(parsing: key[3])
      let window = key[4].isEmpty ? nil : try WindowSpec(parsing: key[4])
      guard let seed = UInt64(key[5]) else {
        throw ConfigurationError(.invalidValue, "seed '\(key[5])' is not a number")
      }
      var configuration = RunConfiguration(
        tracePath: key[0], trace: try TraceSpec(parsing: key[1]), policies: policies, capacities: capacities,
        engines: engines, ignoreSize: ignoreSize, warmup: warmup, seed: seed, parallel: parallel, window: window)
      configuration.slice = TraceSlice(
        requestLimit: Int64(key[6]), sampleRate: Double(key[7]) ?? 1, minimumObjects: Int(key[8]) ?? 0)
      var expected: [Int: [String]] = [:]
      for (row, index) in zip(rows, indices) {
        location = table.location(ofRow: index)
        guard let cell = Int(table.value(row, "cell")!), let cells = Int(table.value(row, "cells")!),
          cells == configuration.gridSize, (0..<cells).contains(cell), expected[cell] == nil
        else {
          throw ConfigurationError(
            .invalidValue,
            "the rows of \(key[0]) (seed \(key[5])) do not form one full run of \(policies.count) policies × \(capacities.count) sizes + \(engines.count) engines"
          )
        }
        expected[cell] = row
      }
      location = table.location(ofRow: indices[0])
      guard expected.count == configuration.gridSize else {
        throw ConfigurationError(
          .invalidValue, "\(key[0]) (seed \(key[5])): \(configuration.gridSize - expected.count) cells are missing")
      }
      return Run(configuration: configuration, expected: expected)
    } catch {
      throw FileError(path: location, error.description)
    }
  }
}
