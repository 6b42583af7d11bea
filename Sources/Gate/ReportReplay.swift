import CacheCore
import Engine
import Replay
import Reports
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
    for name in RunKey.columns + ["policy", "params", "capacity_spec", "cell", "cells"] { _ = try table.column(name) }
    var order: [RunKey] = []
    var rowsByKey: [RunKey: [Int]] = [:]
    for (index, row) in table.rows.enumerated() {
      let key = RunKey(row, table)
      if rowsByKey[key] == nil { order.append(key) }
      rowsByKey[key, default: []].append(index)
    }
    var result: [Run] = []
    for key in order {
      result.append(try rebuild(key: key, rows: rowsByKey[key]!, table: table, parallel: parallel))
    }
    return result
  }

  /// What the rows of one run share: the columns that define a run apart from its caches.
  struct RunKey: Hashable {
    /// The columns every report has (the rest may be missing from older reports).
    static let columns = ["trace", "format", "ignore_size", "warmup", "window", "seed"]

    var trace: String
    var format: String
    var ignoreSize: Bool
    var warmup: String
    var window: String
    var seed: String
    var requestLimit: String
    var sampleRate: String
    var sampleFloor: String

    init(_ row: [String], _ table: ReportTable) {
      func value(_ column: String) -> String { table.value(row, column) ?? "" }
      trace = value("trace")
      format = value("format")
      ignoreSize = value("ignore_size") == "true"
      warmup = value("warmup")
      window = value("window")
      seed = value("seed")
      requestLimit = value("num_req")
      sampleRate = value("sample_rate")
      sampleFloor = value("sample_floor")
    }
  }

  /// The run of the rows at `indices` (one key); errors name the line of the row at fault.
  private static func rebuild(key: RunKey, rows indices: [Int], table: ReportTable, parallel: Bool) throws(FileError)
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
      let ignoreSize = key.ignoreSize
      for (row, index) in zip(rows, indices) {
        location = table.location(ofRow: index)
        let policy = table.value(row, "policy")!
        let params = table.value(row, "params")!
        switch ReportRowKind(policyCell: policy) {
        case .engine(.custom):
          throw ConfigurationError(.invalidValue, "custom engine rows cannot be re-run; use presets in a baseline")
        case .engine(.preset(let text)):
          let spec = try PresetSpec(parsing: text)
          guard spec.configuration.summary == params else {
            throw ConfigurationError(
              .invalidValue, "\(policy) ran with other tiers than the preset's (\(params)); it cannot be re-run")
          }
          var configuration = spec.configuration
          if let model = table.value(row, "latency_model"), !model.isEmpty {
            configuration.latency = try LatencySpec(parsing: model).applied(to: LatencyModel())
            configuration.latency.profile = table.value(row, "latency_profile") ?? model
          }
          engines.append(LabeledEngine(.preset(text), configuration: configuration))
          continue
        case .policyRun:
          break
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
      let warmup = try WarmupSpec(parsing: key.warmup)
      let window = key.window.isEmpty ? nil : try WindowSpec(parsing: key.window)
      guard let seed = UInt64(key.seed) else {
        throw ConfigurationError(.invalidValue, "seed '\(key.seed)' is not a number")
      }
      var configuration = RunConfiguration(
        tracePath: key.trace, trace: try TraceSpec(parsing: key.format), policies: policies, capacities: capacities,
        engines: engines, ignoreSize: ignoreSize, warmup: warmup, seed: seed, parallel: parallel, window: window)
      configuration.slice = TraceSlice(
        requestLimit: Int64(key.requestLimit), sampleRate: Double(key.sampleRate) ?? 1,
        minimumObjects: Int(key.sampleFloor) ?? 0)
      var expected: [Int: [String]] = [:]
      for (row, index) in zip(rows, indices) {
        location = table.location(ofRow: index)
        guard let cell = Int(table.value(row, "cell")!), let cells = Int(table.value(row, "cells")!),
          cells == configuration.gridSize, (0..<cells).contains(cell), expected[cell] == nil
        else {
          throw ConfigurationError(
            .invalidValue,
            "the rows of \(key.trace) (seed \(key.seed)) do not form one full run of \(policies.count) policies × \(capacities.count) sizes + \(engines.count) engines"
          )
        }
        expected[cell] = row
      }
      location = table.location(ofRow: indices[0])
      guard expected.count == configuration.gridSize else {
        throw ConfigurationError(
          .invalidValue, "\(key.trace) (seed \(key.seed)): \(configuration.gridSize - expected.count) cells are missing"
        )
      }
      return Run(configuration: configuration, expected: expected)
    } catch {
      throw FileError(path: location, error.description)
    }
  }
}
