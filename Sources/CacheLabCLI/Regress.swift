import ArgumentParser
import CacheCore
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
    abstract: "Replay a baseline's configurations; fail when a result changed or replay got significantly slower.",
    discussion: """
      Every CSV report in the baseline directory is replayed from its own rows (trace, \
      format, policies, sizes, presets, warm-up, window, seeds). Any difference in a \
      deterministic column (every column but replay_seconds and requests_per_second) fails. \
      Speed: per configuration, the baseline's requests_per_second over its repeats is \
      compared with a fresh measurement by Welch's t-test. The geometric mean of all speed \
      ratios measures the machine (a faster or slower host scales every configuration \
      alike); a configuration regresses when, relative to that factor, its mean is more than \
      --tolerance below the baseline's with p < --alpha, and everything regresses when the \
      factor itself is below 1 - --machine-tolerance. A suspected regression is measured \
      once more, and fails only if the second measurement agrees. \
      Speed is checked only in release builds (timings of debug builds mean nothing). \
      Relative trace paths are found from the working directory, else from the baseline \
      directory or its parents, so a baseline runs from anywhere. Exit 0: nothing \
      regressed; 1: a regression or an error.

      Examples:
        cachelab regress --baseline Reports/baseline
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

  @Option(help: "Allowed slowdown before a significant difference fails, as a fraction.")
  var tolerance = 0.25

  @Option(help: "Significance level of Welch's t-test for speed.")
  var alpha = 0.01

  @Option(help: "Allowed slowdown of everything at once (a slower machine), as a fraction.")
  var machineTolerance = 0.5

  @Flag(help: "Do not check replay speed.")
  var noSpeed = false

  @Flag(help: "Rewrite the baseline reports with fresh results instead of checking.")
  var update = false

  @Option(
    help: ArgumentHelp(
      "Also write a JUnit XML report (one case per baseline file for results and one for speed) for CI systems.",
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
    guard tolerance >= 0, tolerance < 1 else { throw ValidationError("--tolerance must be in [0, 1)") }
    guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be in (0, 1)") }
    guard machineTolerance >= 0, machineTolerance < 1 else {
      throw ValidationError("--machine-tolerance must be in [0, 1)")
    }
  }

  static var isReleaseBuild: Bool {
    #if DEBUG
      return false
    #else
      return true
    #endif
  }

  func run() throws {
    if let create {
      try CLIErrors.translating {
        let results = try ReplayExecution.perform(replay)
        try makeDirectories(create, purpose: "baseline directory")
        try CSVReport.write(results, to: create + "/baseline.csv")
        let rows = results.reduce(0) { $0 + $1.caches.count + $1.engines.count }
        print(
          "wrote \(create)/baseline.csv: \(rows) rows from \(results.count) runs; check with: cachelab regress --baseline \(create)"
        )
      }
      return
    }
    guard let baseline else { return }
    try CLIErrors.translating {
      let files = try Self.reports(in: baseline)
      var failed = false
      var junitReport = JUnitReport(suite: "cachelab regress \(baseline)")
      defer {
        if let junit {
          do throws(FileError) {
            let writer = try AtomicFileWriter(path: junit)
            try writer.write(junitReport.render())
            try writer.commit()
          } catch {
            StandardError.write("cachelab: \(error)\n")
          }
        }
      }
      for path in files {
        let table = try ReportTable(contentsOf: path)
        let runs = try ReportReplay.runs(table).map { run in
          var located = run
          located.configuration.readPath = Self.locate(run.configuration.tracePath, baseline: baseline)
          return located
        }
        var results = try runs.map { run in
          try ReplayExecution.withTrace(run.configuration) { try Replayer($0).run() }
        }
        if update {
          let writer = try AtomicFileWriter(path: path)
          try writer.write(CSVReport.render(results))
          try writer.commit()
          print("\(path): rewrote \(results.reduce(0) { $0 + $1.caches.count + $1.engines.count }) rows")
          continue
        }
        let newColumns = ReportColumn.standard.map(\.name).filter { !table.header.contains($0) }
        if !newColumns.isEmpty {
          print(
            "\(path): note: the baseline lacks columns \(newColumns.joined(separator: ", ")) (refresh with --update)")
        }
        var differences: [RegressionCheck.Difference] = []
        for (run, result) in zip(runs, results) {
          differences += RegressionCheck.differences(
            run, result, baselineHeader: table.header, ratioTolerance: hitRatioTolerance)
        }
        let rows = table.rows.count
        junitReport.cases.append(
          JUnitReport.Case(
            name: "\(path): results",
            failure: differences.isEmpty
              ? nil
              : "\(differences.count) values changed:\n"
                + differences.prefix(40).map { "  \($0)" }.joined(separator: "\n")))
        if differences.isEmpty {
          print("\(path): \(rows) rows, \(runs.count) runs: every deterministic column matches")
        } else {
          failed = true
          print("\(path): \(differences.count) values changed:")
          for difference in differences.prefix(40) { print("  \(difference)") }
          if differences.count > 40 { print("  … and \(differences.count - 40) more") }
        }
        guard !noSpeed else {
          junitReport.cases.append(JUnitReport.Case(name: "\(path): speed", skipped: "--no-speed"))
          continue
        }
        guard Self.isReleaseBuild else {
          junitReport.cases.append(JUnitReport.Case(name: "\(path): speed", skipped: "debug build"))
          print("\(path): speed not checked: this is a debug build (use .build/release/cachelab)")
          continue
        }
        var (speeds, factor, slow) = try judge(table, results)
        if !slow.isEmpty {
          print("\(path): \(slow.count) configurations look slower; measuring again")
          results = try runs.map { run in
            try ReplayExecution.withTrace(run.configuration) { try Replayer($0).run() }
          }
          (speeds, factor, slow) = try judge(table, results)
        }
        let ratios = speeds.map(\.ratio)
        if let low = ratios.min(), let high = ratios.max() {
          print(
            "\(path): speed vs baseline over \(speeds.count) configurations: ×\(Decimal.fixed(low, 2))…×\(Decimal.fixed(high, 2)), machine factor ×\(Decimal.fixed(factor, 2))"
          )
        }
        var speedProblems: [String] = []
        if factor < 1 - machineTolerance { speedProblems.append("machine factor ×\(Decimal.fixed(factor, 2))") }
        speedProblems += slow.map { "\($0.label): ×\(Decimal.fixed($0.ratio, 2))" }
        junitReport.cases.append(
          JUnitReport.Case(
            name: "\(path): speed",
            failure: speedProblems.isEmpty ? nil : "slower: " + speedProblems.joined(separator: "; ")))
        if factor < 1 - machineTolerance {
          failed = true
          print(
            "\(path): everything replays ×\(Decimal.fixed(factor, 2)) as fast as the baseline (allowed: ×\(Decimal.fixed(1 - machineTolerance, 2)))"
          )
        }
        if !slow.isEmpty {
          failed = true
          print(
            "\(path): replay got significantly slower relative to the machine factor (tolerance \(Int(tolerance * 100)) %, p < \(alpha)):"
          )
          for speed in slow {
            print(
              "  \(speed.label): \(Decimal.fixed(speed.baseline.mean / 1e6, 2)) -> \(Decimal.fixed(speed.current.mean / 1e6, 2)) M req/s (×\(Decimal.fixed(speed.ratio, 2)), p = \(speed.test.pValue.map { Decimal.fixed($0, 6) } ?? "n/a"))"
            )
          }
        }
      }
      if failed { throw ExitCode.failure }
      print(update ? "baseline updated" : "no regression")
    }
  }

  /// Every configuration's speed against `table`, the machine factor, and the regressions.
  private func judge(_ table: ReportTable, _ results: [RunResult]) throws -> (
    speeds: [RegressionCheck.Speed], factor: Double, slow: [RegressionCheck.Speed]
  ) {
    let speeds = try RegressionCheck.speeds(baseline: table, current: results)
    let factor = RegressionCheck.machineFactor(speeds)
    return (
      speeds, factor, speeds.filter { $0.isRegression(tolerance: tolerance, alpha: alpha, machineFactor: factor) }
    )
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

  /// The `.csv` files directly in `directory`, sorted.
  static func reports(in directory: String) throws -> [String] {
    guard let entries = directoryEntries(directory) else {
      throw FileError(path: directory, "cannot open the baseline directory: \(systemErrorMessage(currentErrno))")
    }
    let names = entries.filter { $0.hasSuffix(".csv") && !$0.hasPrefix(".") }
    guard !names.isEmpty else { throw FileError(path: directory, "no baseline reports (*.csv) here") }
    return names.sorted().map { directory + "/" + $0 }
  }
}
