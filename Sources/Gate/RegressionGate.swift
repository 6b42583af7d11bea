import CacheCore
import Replay
import Reports

/// The regression gate behind `cachelab regress --baseline`: replays each baseline report
/// from its own rows and judges the results — every deterministic column exactly (or the
/// `*_ratio` columns within a tolerance), and replay speed against the baseline's repeats
/// (Welch's test relative to the machine factor; a suspected regression is measured again).
/// It returns what it found as values; the command prints them and sets the exit status.
public struct RegressionGate {
  /// How strict the gate is.
  public struct Settings: Sendable {
    /// Compare only the `*_ratio` columns, each within this absolute difference.
    public var hitRatioTolerance: Double?
    /// Allowed slowdown of one configuration before a significant difference fails.
    public var tolerance = 0.25
    /// Significance level of Welch's t-test for speed.
    public var alpha = 0.01
    /// Allowed slowdown of everything at once (a slower machine).
    public var machineTolerance = 0.5
    /// Why speed is not checked (`--no-speed`, a debug build), or nil to check it.
    public var speedSkipped: String?

    public init() {}
  }

  /// The speed verdict for one report.
  public enum SpeedOutcome: Sendable {
    case skipped(reason: String)
    /// Every configuration's speed, the machine factor, the configurations that regressed,
    /// and how many looked slower at first (then all were measured a second time).
    case measured(speeds: [RegressionCheck.Speed], factor: Double, slow: [RegressionCheck.Speed], suspected: Int)
  }

  /// What the gate found for one report.
  public struct Outcome: Sendable {
    public var path: String
    public var rows: Int
    public var runs: Int
    /// Standard columns the baseline does not have (refresh it to record them).
    public var missingColumns: [String]
    public var differences: [RegressionCheck.Difference]
    public var speed: SpeedOutcome
    /// Whether everything together replays slower than the machine tolerance allows.
    public var machineTooSlow: Bool

    /// The configurations that regressed in speed.
    public var slow: [RegressionCheck.Speed] {
      if case .measured(_, _, let slow, _) = speed { return slow }
      return []
    }

    /// Whether the report fails the gate.
    public var failed: Bool { !differences.isEmpty || !slow.isEmpty || machineTooSlow }
  }

  public let settings: Settings
  /// Replays one run (the caller locates traces and generates synthetic ones).
  let replay: (RunConfiguration) throws -> RunResult

  public init(settings: Settings, replay: @escaping (RunConfiguration) throws -> RunResult) {
    self.settings = settings
    self.replay = replay
  }

  /// Replays the report at `path` and judges it.
  public func check(report path: String) throws -> Outcome {
    let table = try ReportTable(contentsOf: path)
    let runs = try ReportReplay.runs(table)
    var results = try runs.map { try replay($0.configuration) }
    var differences: [RegressionCheck.Difference] = []
    for (run, result) in zip(runs, results) {
      differences += RegressionCheck.differences(
        run, result, baselineHeader: table.header, ratioTolerance: settings.hitRatioTolerance)
    }
    var outcome = Outcome(
      path: path, rows: table.rows.count, runs: runs.count,
      missingColumns: ReportColumn.standard.map(\.name).filter { !table.header.contains($0) },
      differences: differences, speed: .skipped(reason: settings.speedSkipped ?? ""), machineTooSlow: false)
    guard settings.speedSkipped == nil else { return outcome }
    var (speeds, factor, slow) = try judge(table, results)
    let suspected = slow.count
    if suspected > 0 {
      results = try runs.map { try replay($0.configuration) }
      (speeds, factor, slow) = try judge(table, results)
    }
    outcome.speed = .measured(speeds: speeds, factor: factor, slow: slow, suspected: suspected)
    outcome.machineTooSlow = factor < 1 - settings.machineTolerance
    return outcome
  }

  /// Rewrites the report at `path` with fresh results of its own runs; returns the rows written.
  public func update(report path: String) throws -> Int {
    let runs = try ReportReplay.runs(try ReportTable(contentsOf: path))
    let results = try runs.map { try replay($0.configuration) }
    let writer = try AtomicFileWriter(path: path)
    try writer.write(CSVReport.render(results))
    try writer.commit()
    return results.reduce(0) { $0 + $1.caches.count }
  }

  /// Every configuration's speed against `table`, the machine factor, and the regressions.
  private func judge(_ table: ReportTable, _ results: [RunResult]) throws(FileError) -> (
    speeds: [RegressionCheck.Speed], factor: Double, slow: [RegressionCheck.Speed]
  ) {
    let speeds = try RegressionCheck.speeds(baseline: table, current: results)
    let factor = RegressionCheck.machineFactor(speeds)
    let slow = speeds.filter {
      $0.isRegression(tolerance: settings.tolerance, alpha: settings.alpha, machineFactor: factor)
    }
    return (speeds, factor, slow)
  }

  /// The `.csv` files directly in `directory`, sorted.
  public static func reports(in directory: String) throws(FileError) -> [String] {
    guard let entries = directoryEntries(directory) else {
      throw FileError(path: directory, "cannot open the baseline directory: \(systemErrorMessage(currentErrno))")
    }
    let names = entries.filter { $0.hasSuffix(".csv") && !$0.hasPrefix(".") }
    guard !names.isEmpty else { throw FileError(path: directory, "no baseline reports (*.csv) here") }
    return names.sorted().map { directory + "/" + $0 }
  }
}
