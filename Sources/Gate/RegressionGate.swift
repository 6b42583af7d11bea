import CacheCore
import Replay
import Reports

/// The regression gate behind `cachelab regress --baseline`: replays each baseline report
/// from its own rows and compares every deterministic column exactly (or the `*_ratio`
/// columns within a tolerance); speed is judged apart, side by side with a reference build
/// (``sideBySide(reports:baseline:candidate:reference:settings:locate:progress:)``), or not at
/// all. It returns what it found as values; the command prints them and sets the exit status.
public struct RegressionGate {
  /// How results are compared.
  public struct Settings: Sendable {
    /// Compare only the `*_ratio` columns, each within this absolute difference.
    public var hitRatioTolerance: Double?

    public init() {}
  }

  /// What the gate found in one report's results.
  public struct Outcome: Sendable {
    public var path: String
    public var rows: Int
    public var runs: Int
    /// Standard columns an older baseline does not have (refresh it to record them).
    public var missingColumns: [String]
    public var differences: [RegressionCheck.Difference]

    /// Whether the report's results fail the gate.
    public var failed: Bool { !differences.isEmpty }
  }

  /// What the gate says about speed.
  public enum Speed: Sendable {
    /// Not measured (`--no-speed`).
    case skipped(reason: String)
    /// Not judged, and why (no reference build).
    case notJudged(reason: String)
    case judged(SpeedVerdict)
  }

  public let settings: Settings
  /// Replays one run (the caller locates traces and generates synthetic ones).
  let replay: (RunConfiguration) throws -> RunResult

  public init(settings: Settings, replay: @escaping (RunConfiguration) throws -> RunResult) {
    self.settings = settings
    self.replay = replay
  }

  /// Reads the baseline report at `path`: refuses one without rows or with a hand-edited header.
  ///
  /// - Throws: ``FileError`` naming `path:line`.
  public static func table(_ path: String) throws(FileError) -> ReportTable {
    let table = try ReportTable(contentsOf: path)
    _ = try RegressionCheck.missingColumns(table)
    guard !table.rows.isEmpty else {
      throw FileError(
        path: path,
        "holds no rows, so there is nothing to check; make a baseline with cachelab regress --create (or --update)")
    }
    return table
  }

  /// Replays the report at `path` and compares its results.
  public func check(report path: String) throws -> Outcome {
    let table = try Self.table(path)
    let runs = try ReportReplay.runs(table)
    var differences: [RegressionCheck.Difference] = []
    for run in runs {
      differences += RegressionCheck.differences(
        run, try replay(run.configuration), baselineHeader: table.header,
        ratioTolerance: settings.hitRatioTolerance)
    }
    return Outcome(
      path: path, rows: table.rows.count, runs: runs.count,
      missingColumns: try RegressionCheck.missingColumns(table), differences: differences)
  }

  /// Rewrites the report at `path` with fresh results of its own runs; returns the rows written.
  public func update(report path: String) throws -> Int {
    let runs = try ReportReplay.runs(try Self.table(path))
    let results = try runs.map { try replay($0.configuration) }
    let writer = try AtomicFileWriter(path: path)
    try writer.write(CSVReport.render(results))
    try writer.commit()
    return results.reduce(0) { $0 + $1.caches.count }
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

extension RegressionGate {
  /// Why speed cannot be judged without a reference build, in one line: the baseline's
  /// figures come from another machine, or from this one at another moment.
  public static func speedWithoutReference(baseline directory: String) throws(FileError) -> Speed {
    let here = MachineRecord.current()
    let advice = "pass --speed-against to compare builds"
    guard let recorded = try MachineRecord.read(from: directory) else {
      return .notJudged(
        reason:
          "speed not judged: the baseline does not say which machine measured it (no \(MachineRecord.fileName)); this machine is \(here.summary); \(advice)"
      )
    }
    guard recorded.sameMachine(as: here) else {
      return .notJudged(
        reason: "speed not judged: baseline made on \(recorded.summary), this machine is \(here.summary); \(advice)")
    }
    return .notJudged(
      reason:
        "speed not judged: the baseline was measured on this machine, but at another moment (\(recorded.made)), and a machine's speed drifts between moments by more than a tolerance can absorb; \(advice) side by side"
    )
  }

  /// Judges this build (`candidate`, an executable) against `reference` on the configurations
  /// of `reports`, side by side in fresh processes (``SideBySideSpeed``).
  ///
  /// - Throws: ``FileError`` for an unreadable report or scratch folder;
  ///   ``BuildRunner/Failure`` when a build cannot replay what it must.
  public static func sideBySide(
    reports: [String], candidate: String, reference: String, settings: SideBySideSpeed.Settings,
    locate: (String) -> String?, progress: @escaping (String) -> Void
  ) throws -> SpeedVerdict {
    let plan = try SpeedPlan(try reports.map { path throws(FileError) in try table(path) }, locate: locate)
    guard let candidateFolder = ScratchDirectory.make(purpose: "speed-new") else {
      throw FileError(path: "$TMPDIR", "cannot create a scratch folder: \(systemErrorMessage(currentErrno))")
    }
    defer { ScratchDirectory.remove(candidateFolder) }
    guard let referenceFolder = ScratchDirectory.make(purpose: "speed-reference") else {
      throw FileError(path: "$TMPDIR", "cannot create a scratch folder: \(systemErrorMessage(currentErrno))")
    }
    defer { ScratchDirectory.remove(referenceFolder) }
    let builds = [
      SideBySideSpeed.Build.candidate: BuildRunner(executable: candidate, folder: candidateFolder),
      .reference: BuildRunner(executable: reference, folder: referenceFolder),
    ]
    let speed = SideBySideSpeed(
      plan: plan, settings: settings, candidate: candidate, reference: reference,
      measure: { build, unit in builds[build]!.measure(unit) }, progress: progress)
    return try speed.run()
  }
}
