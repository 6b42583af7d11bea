import ArgumentParser
import CacheCore
import Gate
import Replay
import Reports
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `cachelab regress`: the CI gate against committed baseline reports.
struct Regress: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "regress",
    abstract:
      "Replay a baseline's configurations; fail when a result changed or this build is slower than a reference build.",
    discussion: """
      Results: every CSV report in the baseline directory is replayed from its own rows \
      (trace, format, policies, sizes, presets, warm-up, window, seeds), and any difference in \
      a deterministic column (every column but the timings: replay_seconds, requests_per_second \
      and peak_memory_bytes) fails.

      Speed is judged side by side, never against figures from another moment: with \
      --speed-against OTHER (another cachelab executable, e.g. a build of the base branch), \
      this build and OTHER replay each policy or preset of the baseline in turn, one fresh \
      process each (which goes first alternates), after a warm-up round that is not counted. \
      Each configuration gets --rounds paired ratios (this build / OTHER), judged by the \
      Hodges-Lehmann estimate with Wilcoxon's signed-rank 95 % interval; the overall ratio is \
      the geometric mean over all configurations, with a Student-t 95 % interval over the \
      rounds. A configuration whose interval still holds its threshold gets --rounds more \
      rounds at a time, up to six times --rounds; one whose interval lies wholly below it \
      gets --rounds more once (a burst of load can sink one configuration's first rounds). \
      It fails only when a whole interval lies below 1 - tolerance after those rounds: --speed-tolerance overall (10 %), --config-tolerance for one \
      configuration (25 %). Configurations OTHER cannot replay (a policy it lacks) are listed \
      and not judged. Without --speed-against, speed is not judged, and the gate says why: \
      the machine that measured the baseline (machine.txt, written by --create and --update) \
      differs, or measured at another moment.

      Relative trace paths are found from the working directory, else from the baseline \
      directory or its parents, so a baseline runs from anywhere. Exit 0: results match and \
      speed is not judged slower; 1: a regression or an error; 64: bad arguments.

      Examples:
        cachelab regress --baseline Reports/baseline --speed-against .build-reference/cachelab
        cachelab regress --create ci/baseline --trace app.cachelab.csv --policies lru,sieve --sizes 64MiB --repeat 3
        cachelab regress --baseline ci/baseline --no-speed --junit gate.xml
      """)

  @OptionGroup(title: "Baseline (give one)")
  var target: RegressTarget

  var baseline: String? { target.baseline }
  var create: String? { target.create }

  @Option(
    help: ArgumentHelp(
      "Compare only the *_ratio columns, each within this absolute difference (for regenerated traces).",
      valueName: "fraction"))
  var hitRatioTolerance: Double?

  @OptionGroup(title: "Replay options (with --create)")
  var replay: ReplayOptions

  @Option(
    help: ArgumentHelp(
      "Judge speed side by side with this other cachelab executable (the reference build).",
      valueName: "cachelab"))
  var speedAgainst: String?

  @Option(help: "Allowed slowdown of the geometric mean over all configurations, as a fraction.")
  var speedTolerance = 0.10

  @Option(help: "Allowed slowdown of one configuration, as a fraction.")
  var configTolerance = 0.25

  @Option(help: "Rounds every configuration gets with --speed-against (at least 6).")
  var rounds = 10

  @Option(
    help: ArgumentHelp(
      "With --speed-against, append one row per judged ratio (date, commit, ratio, interval, machine) to this CSV.",
      valueName: "file.csv"))
  var history: String?

  @Flag(help: "Do not judge replay speed.")
  var noSpeed = false

  @Flag(help: "Rewrite the baseline reports with fresh results (and machine.txt) instead of checking.")
  var update = false

  @Option(
    help: ArgumentHelp(
      "Also write a JUnit XML report (a case per baseline file's results, per configuration's speed, and for the overall speed).",
      valueName: "file.xml"))
  var junit: String?

  func validate() throws {
    guard (baseline == nil) != (create == nil) else {
      throw ValidationError("give --baseline DIR to check, or --create DIR with replay options to make one")
    }
    guard create == nil || replay.trace != nil else {
      throw ValidationError("--create needs --trace and what to replay")
    }
    guard baseline == nil || replay.trace == nil else {
      throw ValidationError("replay options go with --create; --baseline replays what its reports say")
    }
    if let hitRatioTolerance, !(0..<1).contains(hitRatioTolerance) {
      throw ValidationError("--hit-ratio-tolerance must be in [0, 1)")
    }
    guard speedTolerance > 0, speedTolerance < 1 else { throw ValidationError("--speed-tolerance must be in (0, 1)") }
    guard configTolerance > 0, configTolerance < 1 else {
      throw ValidationError("--config-tolerance must be in (0, 1)")
    }
    guard (6...1000).contains(rounds) else {
      throw ValidationError(
        "--rounds must be from 6 (the fewest rounds with a 95 % signed-rank interval) to 1000, not \(rounds)")
    }
    if speedAgainst != nil || history != nil {
      guard !noSpeed, !update, create == nil else {
        throw ValidationError("--speed-against and --history judge speed: not with --no-speed, --update or --create")
      }
    }
    guard history == nil || speedAgainst != nil else {
      throw ValidationError("--history records side-by-side speed: give --speed-against too")
    }
    if let speedAgainst { try Self.checkExecutable(speedAgainst) }
    try checkOutputs()
  }

  /// The reference must be an executable file.
  static func checkExecutable(_ path: String) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ValidationError("--speed-against \(path): \(systemErrorMessage(currentErrno))")
    }
    guard info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
      throw ValidationError("--speed-against \(path): not an executable file (give a cachelab binary)")
    }
  }

  /// --junit and --history must not name the same file, a baseline report, or a file the next
  /// run would read as one.
  func checkOutputs() throws {
    guard let baseline else { return }
    let reports = (try? RegressionGate.reports(in: baseline)) ?? []
    let outputs = [("--junit", junit), ("--history", history)].compactMap { name, path in path.map { (name, $0) } }
    for (name, path) in outputs {
      if let report = reports.first(where: { FileIdentity.same($0, path) }) {
        throw ValidationError("\(name) \(path) is the baseline report \(report); it would be replaced")
      }
      if path.hasSuffix(".csv"), FileIdentity.same(Self.folder(of: path), baseline) {
        throw ValidationError(
          "\(name) \(path) is in the baseline folder, where the next check would read it as a report")
      }
    }
    if outputs.count == 2, FileIdentity.same(outputs[0].1, outputs[1].1) {
      throw ValidationError("--junit and --history name the same file (\(outputs[0].1))")
    }
  }

  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  func run() throws {
    if let create {
      try CLIErrors.translating {
        let results = try ReplayExecution.perform(replay)
        try makeDirectories(create, purpose: "baseline directory")
        try CSVReport.write(results, to: create + "/baseline.csv")
        try MachineRecord.current(checkout: create).write(into: create)
        let rows = results.reduce(0) { $0 + $1.caches.count }
        print(
          "wrote \(create)/baseline.csv: \(rows) rows from \(results.count) runs; check with: cachelab regress --baseline \(create)"
        )
      }
      return
    }
    guard let baseline else { return }
    try CLIErrors.translating {
      var settings = RegressionGate.Settings()
      settings.hitRatioTolerance = hitRatioTolerance
      let gate = RegressionGate(settings: settings) { configuration in
        var located = configuration
        located.readPath = Self.locate(configuration.tracePath, baseline: baseline)
        return try ReplayExecution.withTrace(located) { try Replayer($0).run() }
      }
      let reports = try RegressionGate.reports(in: baseline)
      if update {
        for path in reports { print("\(path): rewrote \(try gate.update(report: path)) rows") }
        try MachineRecord.current(checkout: baseline).write(into: baseline)
        print("baseline updated")
        return
      }
      var failed = false
      var junitReport = JUnitReport(suite: "cachelab regress \(baseline)")
      defer { Self.write(junitReport, to: junit) }
      for path in reports {
        do {
          let outcome = try gate.check(report: path)
          failed = outcome.failed || failed
          junitReport.cases.append(RegressOutput.results(outcome))
        } catch {
          // A baseline that cannot be checked fails in the JUnit file too, not as an empty suite.
          junitReport.cases.append(JUnitReport.Case(name: "\(path): results", failure: "\(error)"))
          throw error
        }
      }
      let speed = try judgeSpeed(reports: reports, baseline: baseline)
      failed = RegressOutput.speed(speed, into: &junitReport, reports: reports) || failed
      if case .judged(let verdict) = speed, let history {
        try SpeedHistory.append(
          verdict, to: history, baseline: baseline, machine: MachineRecord.current(),
          commit: SpeedHistory.currentCommit())
        print("appended \(verdict.configurations.count + (verdict.overall == nil ? 0 : 1)) rows to \(history)")
      }
      if failed { throw ExitCode.failure }
      print("no regression")
    }
  }

  /// Speed: skipped, not judged (and why), or judged side by side.
  private func judgeSpeed(reports: [String], baseline: String) throws -> RegressionGate.Speed {
    if noSpeed { return .skipped(reason: "--no-speed") }
    guard let speedAgainst else { return try RegressionGate.speedWithoutReference(baseline: baseline) }
    guard let candidate = ChildProcess.currentExecutable else {
      throw Failure(message: "cannot find this executable's own path to run it side by side")
    }
    var settings = SideBySideSpeed.Settings()
    settings.rounds = rounds
    settings.maximumRounds = rounds * 6
    settings.overallTolerance = speedTolerance
    settings.configurationTolerance = configTolerance
    let showProgress = isatty(STDERR_FILENO) != 0
    do {
      return .judged(
        try RegressionGate.sideBySide(
          reports: reports, candidate: candidate, reference: speedAgainst, settings: settings,
          locate: { Self.locate($0, baseline: baseline) },
          progress: { if showProgress { StandardError.write("speed: \($0)\n") } }))
    } catch let failure as BuildRunner.Failure {
      throw Failure(message: "speed side by side: \(failure)")
    }
  }

  /// Writes the JUnit report when `--junit` asks for one (a failure to write is reported, not thrown).
  private static func write(_ report: JUnitReport, to path: String?) {
    guard let path else { return }
    do throws(FileError) {
      let writer = try AtomicFileWriter(path: path)
      try writer.write(report.render())
      try writer.commit()
    } catch {
      StandardError.write("cachelab: \(error)\n")
    }
  }

  /// Where a baseline's trace is: an absolute path as is; a relative one found from the
  /// working directory, else from the baseline directory or one of its two parents (so a
  /// baseline runs from any directory). nil: leave it to the reader to report.
  static func locate(_ trace: String, baseline: String) -> String? {
    guard !trace.hasPrefix("/"), !SyntheticTraceSpec.matches(trace), access(trace, F_OK) != 0 else { return nil }
    var folder = baseline
    for _ in 0..<3 {
      let candidate = folder + "/" + trace
      if access(candidate, F_OK) == 0 { return candidate }
      folder += "/.."
    }
    return nil
  }
}
