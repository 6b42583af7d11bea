import CacheCore
import Replay
import Reports
import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compares a replayed run with the baseline rows it must reproduce: every deterministic
/// column exactly, and replay speed statistically (Welch's t-test over repeats).
public enum RegressionCheck {
  /// A deterministic value that changed.
  public struct Difference: Sendable, CustomStringConvertible {
    public var row: String
    public var column: String
    public var expected: String
    public var actual: String
    public var description: String { "\(row): \(column) \(expected) -> \(actual)" }
  }

  /// Replay speed of one configuration, baseline against now.
  public struct Speed: Sendable {
    public var label: String
    public var baseline: SampleSummary
    public var current: SampleSummary
    public var test: WelchTest
    /// Current mean / baseline mean.
    public var ratio: Double { baseline.mean > 0 ? current.mean / baseline.mean : 1 }

    /// Slower by more than `tolerance` (a fraction) once the current speed is divided by
    /// `machineFactor` (how much faster this machine runs everything), and significantly so
    /// at `alpha` (Welch's test on the rescaled samples).
    public func isRegression(tolerance: Double, alpha: Double, machineFactor: Double = 1) -> Bool {
      let scaled = SampleSummary(
        count: current.count, mean: current.mean / machineFactor,
        standardDeviation: current.standardDeviation / machineFactor)
      return ratio / machineFactor < 1 - tolerance && WelchTest(baseline, scaled).isSignificant(at: alpha)
    }
  }

  /// The geometric mean of the speed ratios: how much faster (> 1) or slower this machine and
  /// build replay the baseline as a whole.
  public static func machineFactor(_ speeds: [Speed]) -> Double {
    let ratios = speeds.map(\.ratio).filter { $0 > 0 && $0.isFinite }
    guard !ratios.isEmpty else { return 1 }
    return exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
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

  /// Speed per configuration (rows that differ only by seed), baseline rows against the
  /// current runs (repeats in seed order).
  public static func speeds(baseline: ReportTable, current: [RunResult]) throws(FileError) -> [Speed] {
    let metric = Metric.named("requests_per_second")!
    let now = ConfigurationSamples.collect(current, metric: metric)
    var result: [Speed] = []
    for before in try ConfigurationSamples.collect(baseline, metric: metric) {
      guard let after = now.first(where: { $0.key == before.key }) else { continue }
      let summaries = (SampleSummary(before.repeats.map(\.value)), SampleSummary(after.repeats.map(\.value)))
      result.append(
        Speed(
          label: before.label, baseline: summaries.0, current: summaries.1, test: WelchTest(summaries.0, summaries.1)))
    }
    return result
  }
}
