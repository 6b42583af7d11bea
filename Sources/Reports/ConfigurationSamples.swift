import CacheCore
import Replay
import Stats

/// What a comparison knows about one configuration on one metric: its identity, its value in
/// each repeat and, when windowed, the windows of its first repeat (the whole series from a
/// run or a window-series file, or only their summary from a run report).
public struct ConfigurationSamples: Sendable {
  /// One repeat's value, with its numerator and denominator for ratio metrics.
  public struct Repeat: Sendable {
    public var seed: UInt64
    public var value: Double
    public var parts: (numerator: Double, denominator: Double)?
  }

  /// The windows of the first repeat.
  public enum Windows: Sendable {
    /// Each window in the statistics (numerator, denominator of the metric) and how many
    /// partial windows were left out.
    case series(spec: String, numerators: [Double], denominators: [Double], excluded: Int)
    /// Only the summary a run report keeps: the weighted mean, its standard error and the
    /// number of batches it was computed over.
    case summary(spec: String, mean: Double, standardError: Double, batches: Int)

    /// The window spec as given (`10000r`, `1h`).
    public var spec: String {
      switch self {
      case .series(let spec, _, _, _), .summary(let spec, _, _, _): return spec
      }
    }
  }

  /// Where it was read from: a report path, or `run`.
  public var source: String
  /// The identity columns' values (``ReportStatistics/identity``).
  public var key: [String]
  /// Display name: `lru @ 0.05`, `preset:sdwebimage`.
  public var label: String
  /// The policy with its parameters, or the engine's label (what `--baseline` names).
  public var name: String
  /// The size as given; empty for engines, whose sizes are part of their configuration.
  public var size: String
  public var isEngine: Bool
  /// Trace, format, mode and warm-up: samples can be paired only on the same trace.
  public var trace: [String]
  /// Whether the trace is generated from each repeat's seed (`gen:`), so equal seeds mean equal traces.
  public var isSynthetic: Bool
  /// Whether the policy (or an engine tier's policy) draws random numbers; nil when unknown.
  public var isRandomized: Bool?
  public var repeats: [Repeat]
  public var windows: Windows?
  /// The numbers of the windows in ``windows``' series (a metric with no value in some
  /// window leaves it out), so only the same windows are paired; nil when unknown.
  public var windowNumbers: [Int]? = nil

  /// The overall figure: Σ numerators / Σ denominators over the repeats for ratios (hits /
  /// requests), otherwise the mean of the repeats' values.
  public var overall: Double {
    let parts = repeats.compactMap(\.parts)
    if parts.count == repeats.count, !parts.isEmpty {
      let denominator = parts.reduce(0) { $0 + $1.denominator }
      return denominator > 0 ? parts.reduce(0) { $0 + $1.numerator } / denominator : 0
    }
    return repeats.reduce(0) { $0 + $1.value } / Double(max(repeats.count, 1))
  }

  /// Whether there are several repeats and they all gave the same value.
  public var isDeterministic: Bool {
    guard repeats.count > 1, let first = repeats.first?.value else { return false }
    return repeats.allSatisfy { $0.value == first }
  }

  /// Whether the repeats' values differ (there is randomness to test).
  public var varies: Bool { repeats.count > 1 && !isDeterministic }

  /// Whether `name` selects this configuration: its full name, its policy or preset name, or
  /// its label.
  public func matches(_ name: String) -> Bool {
    Self.name(name, selects: self.name, label: label, isEngine: isEngine)
  }

  /// Whether `name` (as `--baseline` takes it) selects a configuration called `own` (policy
  /// with parameters, or engine label) and labelled `label`. Case-insensitive.
  public static func name(_ name: String, selects own: String, label: String, isEngine: Bool) -> Bool {
    let lowered = name.lowercased()
    let own = own.lowercased()
    let base = own.split(separator: ":").first.map(String.init) ?? own
    if [own, base, label.lowercased()].contains(lowered) { return true }
    guard isEngine, case .engine(.preset(let spec)) = ReportRowKind(policyCell: own) else { return false }
    return spec == lowered || spec.hasPrefix(lowered + ":")
  }
}

extension ConfigurationSamples {
  /// The configurations of `runs`, in report row order. Runs whose rows have the same
  /// identity columns are repeats of one configuration (in seed order); windows come from
  /// the first of them.
  public static func collect(_ runs: [RunResult], metric: Metric) -> [ConfigurationSamples] {
    var order: [[String]] = []
    var repeats: [[String]: [RunResult]] = [:]
    for run in runs {
      let key = ReportRow.rows([run]).flatMap { row in
        ReportStatistics.identity.map { ReportColumn.named($0)?.value(of: row) ?? "" }
      }
      if repeats[key] == nil { order.append(key) }
      repeats[key, default: []].append(run)
    }
    return order.flatMap { collectRepeats(repeats[$0] ?? [], metric: metric) }
  }

  /// The configurations of `runs`, repeats of one run configuration in seed order.
  private static func collectRepeats(_ runs: [RunResult], metric: Metric) -> [ConfigurationSamples] {
    guard let first = runs.first else { return [] }
    let rows = runs.map { ReportRow.rows([$0]) }
    return rows[0].indices.map { index in
      let row = rows[0][index]
      var samples = describe(source: "run", value: { name in ReportColumn.named(name)?.value(of: row) })
      samples.isRandomized = row.isRandomized
      samples.repeats = rows.map { runRows in
        let row = runRows[index]
        let column = { (name: String) in ReportColumn.named(name).flatMap { Double($0.value(of: row)) } }
        return Repeat(
          seed: row.run.configuration.seed, value: column(metric.name) ?? .nan,
          parts: metric.parts?(column).map { (numerator: $0.0, denominator: $0.1) })
      }
      if let spec = first.configuration.window, let parts = row.windowParts(metric) {
        samples.windows = .series(
          spec: spec.description, numerators: parts.numerators, denominators: parts.denominators,
          excluded: parts.excluded)
        samples.windowNumbers = parts.numbers
      }
      return samples
    }
  }

  /// Identity and names from a row's column values.
  static func describe(source: String, value: (String) -> String?) -> ConfigurationSamples {
    let policy = value("policy") ?? "?"
    let params = value("params") ?? ""
    let isEngine = ReportRowKind(policyCell: policy).isEngine
    // Parameters as written on the command line (the CSV separates them with `;`).
    let admission = value("admission") ?? ""
    let written = params.isEmpty || isEngine ? policy : "\(policy):\(params.replacingOccurrences(";", with: ","))"
    let name = admission.isEmpty ? written : "\(written)+\(admission.replacingOccurrences(";", with: ","))"
    let shortName = isEngine ? name : PolicySpec.label(policy: policy, params: params, admission: admission)
    let size = isEngine ? "" : (value("capacity_spec") ?? value("capacity") ?? "")
    // A size given in bytes or objects reads as the tables print it (`128 MiB`, `1024 obj`).
    let shown = Int64(size).map { MissRatioCurve.capacityLabel($0, objectMode: value("ignore_size") == "true") } ?? size
    return ConfigurationSamples(
      source: source, key: ReportStatistics.identity.map { value($0) ?? "" },
      label: isEngine ? name : (size.isEmpty ? shortName : "\(shortName) @ \(shown)"), name: name, size: size,
      isEngine: isEngine,
      trace: ["trace", "format", "ignore_size", "warmup"].map { value($0) ?? "" },
      isSynthetic: SyntheticTraceName.matches(value("trace") ?? ""),
      isRandomized: isEngine ? nil : (try? PolicyRegistry.entry(named: policy))?.descriptor.isRandomized,
      repeats: [], windows: nil)
  }
}
