import CacheCore
import Stats

/// Configurations side by side on one metric, like with like: every policy against the
/// baseline policy at the same size, every engine against the baseline engine, or each
/// report file's configurations against the first (or baseline) file's. Each line carries the
/// test its samples allow (``PairComparison``); with several tested lines, Holm-adjusted
/// p-values control the chance of any false positive.
public struct ReportComparison: Sendable {
  public let metric: Metric
  public let lines: [PairComparison]
  /// Holm-adjusted p-values, one per line (nil for lines without a p-value, or when only one
  /// line has one).
  public let holm: [Double?]

  /// Compares the configurations of `sources` (one array per report file or run).
  ///
  /// One source: within each group (policies at one size; engines), every configuration
  /// against the one `baseline` names, else the group's first. Several sources each with one
  /// configuration: each against the first (or the source whose path is `baseline`). Otherwise
  /// configurations are matched by identity across sources.
  ///
  /// - Throws: `ConfigurationError` when nothing can be compared or `baseline` names nothing.
  public init(_ sources: [[ConfigurationSamples]], metric: Metric, baseline: String? = nil) throws(ConfigurationError) {
    self.metric = metric
    let pairs: [(ConfigurationSamples, ConfigurationSamples)]
    if sources.count == 1 {
      pairs = try Self.withinGroups(sources[0], baseline: baseline)
    } else {
      pairs = try Self.acrossSources(sources, baseline: baseline)
    }
    let lines = pairs.map { PairComparison($0.0, $0.1) }
    self.lines = lines
    let tested = lines.indices.filter { lines[$0].pValue != nil }
    var holm = [Double?](repeating: nil, count: lines.count)
    if tested.count > 1 {
      let adjusted = HolmAdjustment.adjust(tested.map { lines[$0].pValue ?? 1 })
      for (index, value) in zip(tested, adjusted) { holm[index] = value }
    }
    self.holm = holm
  }

  /// Policies grouped by size and engines as one group, each against its group's baseline.
  static func withinGroups(_ configurations: [ConfigurationSamples], baseline: String?) throws(ConfigurationError)
    -> [(ConfigurationSamples, ConfigurationSamples)]
  {
    let source = configurations.first?.source ?? "compare"
    guard configurations.count >= 2 else {
      throw ConfigurationError(
        .mismatchedData,
        configurations.isEmpty
          ? "\(source): holds no configurations (no rows): nothing to compare"
          : "\(source): only one configuration: nothing to compare it with")
    }
    if let baseline, !configurations.contains(where: { $0.matches(baseline) }) {
      throw ConfigurationError(
        .unknownName,
        "--baseline '\(baseline)' names no configuration; there are: \(Self.names(configurations).joined(separator: ", "))"
      )
    }
    var order: [String] = []
    var groups: [String: [ConfigurationSamples]] = [:]
    for configuration in configurations {
      let group = configuration.isEngine ? "\u{0}engines" : configuration.size
      if groups[group] == nil { order.append(group) }
      groups[group, default: []].append(configuration)
    }
    var pairs: [(ConfigurationSamples, ConfigurationSamples)] = []
    for group in order {
      let members = groups[group] ?? []
      let base = baseline.flatMap { name in members.first { $0.matches(name) } } ?? members[0]
      for member in members where member.key != base.key { pairs.append((base, member)) }
    }
    guard !pairs.isEmpty else {
      throw ConfigurationError(
        .invalidValue,
        "\(source): every configuration has a different size: give several policies at one size to compare")
    }
    return pairs
  }

  /// Each later source's configurations against the baseline source's.
  static func acrossSources(_ sources: [[ConfigurationSamples]], baseline: String?) throws(ConfigurationError)
    -> [(ConfigurationSamples, ConfigurationSamples)]
  {
    var baseIndex = 0
    if let baseline {
      guard let index = sources.firstIndex(where: { $0.first?.source == baseline }) else {
        throw ConfigurationError(
          .unknownName,
          "--baseline '\(baseline)' must be one of the report files: \(sources.compactMap(\.first?.source).joined(separator: ", "))"
        )
      }
      baseIndex = index
    }
    let base = sources[baseIndex]
    var pairs: [(ConfigurationSamples, ConfigurationSamples)] = []
    for (index, source) in sources.enumerated() where index != baseIndex {
      guard !source.isEmpty else {
        throw ConfigurationError(.mismatchedData, "\(sources[index].first?.source ?? "a report"): holds no rows")
      }
      if base.count == 1 && source.count == 1 {
        // One configuration each: what is compared (the policy, or the trace) may differ —
        // one of them — and the setting (size, mode, warm-up, window) may not.
        if let difference = Self.unlikeSetting(base[0], source[0]) {
          throw ConfigurationError(
            .mismatchedData,
            "\(source[0].source): its \(difference) differs from \(base[0].source)'s; compare one change at a time (a policy, or a trace) at one size, mode, warm-up and window"
          )
        }
        pairs.append((base[0], source[0]))
        continue
      }
      for configuration in source {
        if let match = base.first(where: { $0.key == configuration.key }) { pairs.append((match, configuration)) }
      }
    }
    guard !pairs.isEmpty else {
      throw ConfigurationError(
        .mismatchedData,
        "\(sources[baseIndex == 0 ? 1 : 0].first?.source ?? "compare"): no configuration matches one of \(base.first?.source ?? "the baseline")"
      )
    }
    return pairs
  }

  /// Why one configuration cannot be compared with another: the first setting column (size,
  /// mode, warm-up, window) in which they differ, or "policy and trace" when both differ;
  /// nil when they can be.
  static func unlikeSetting(_ a: ConfigurationSamples, _ b: ConfigurationSamples) -> String? {
    let policyColumns: Set<String> = ["policy", "params", "admission"]
    let traceColumns: Set<String> = ["trace", "format"]
    var policyDiffers = false
    var traceDiffers = false
    for (index, column) in ReportStatistics.identity.enumerated() where index < a.key.count && index < b.key.count {
      guard a.key[index] != b.key[index] else { continue }
      if policyColumns.contains(column) {
        policyDiffers = true
      } else if traceColumns.contains(column) {
        traceDiffers = true
      } else {
        return column
      }
    }
    return policyDiffers && traceDiffers ? "policy and trace" : nil
  }

  static func names(_ configurations: [ConfigurationSamples]) -> [String] {
    var seen = Set<String>()
    return configurations.map(\.name).filter { seen.insert($0).inserted }
  }
}
