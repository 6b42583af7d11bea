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
      (settings.tolerance, settings.alpha, settings.machineTolerance) = (tolerance, alpha, machineTolerance)
      settings.speedSkipped = noSpeed ? "--no-speed" : Self.isReleaseBuild ? nil : "debug build"
      let gate = RegressionGate(settings: settings) { configuration in
        var located = configuration
        located.readPath = Self.locate(configuration.tracePath, baseline: baseline)
        return try ReplayExecution.withTrace(located) { try Replayer($0).run() }
      }
      var failed = false
      var junitReport = JUnitReport(suite: "cachelab regress \(baseline)")
      defer { Self.write(junitReport, to: junit) }
      for path in try RegressionGate.reports(in: baseline) {
        if update {
          print("\(path): rewrote \(try gate.update(report: path)) rows")
          continue
        }
        let outcome = try gate.check(report: path)
        failed = outcome.failed || failed
        junitReport.cases += report(outcome)
      }
      if failed { throw ExitCode.failure }
      print(update ? "baseline updated" : "no regression")
    }
  }

  /// Prints what the gate found for one report; returns its JUnit cases (results, speed).
  private func report(_ outcome: RegressionGate.Outcome) -> [JUnitReport.Case] {
    let path = outcome.path
    if !outcome.missingColumns.isEmpty {
      print(
        "\(path): note: the baseline lacks columns \(outcome.missingColumns.joined(separator: ", ")) (refresh with --update)"
      )
    }
    let differences = outcome.differences
    let listed = differences.prefix(40).map { "  \($0)" }
    if differences.isEmpty {
      print("\(path): \(outcome.rows) rows, \(outcome.runs) runs: every deterministic column matches")
    } else {
      print("\(path): \(differences.count) values changed:\n" + listed.joined(separator: "\n"))
      if differences.count > 40 { print("  … and \(differences.count - 40) more") }
    }
    var cases = [
      JUnitReport.Case(
        name: "\(path): results",
        failure: differences.isEmpty ? nil : "\(differences.count) values changed:\n" + listed.joined(separator: "\n"))
    ]
    guard case .measured(let speeds, let factor, let slow, let suspected) = outcome.speed else {
      if case .skipped(let reason) = outcome.speed {
        cases.append(JUnitReport.Case(name: "\(path): speed", skipped: reason))
        if reason == "debug build" {
          print("\(path): speed not checked: this is a debug build (use .build/release/cachelab)")
        }
      }
      return cases
    }
    if suspected > 0 { print("\(path): \(suspected) configurations looked slower and were measured again") }
    let ratios = speeds.map(\.ratio)
    if let low = ratios.min(), let high = ratios.max() {
      print(
        "\(path): speed vs baseline over \(speeds.count) configurations: ×\(Decimal.fixed(low, 2))…×\(Decimal.fixed(high, 2)), machine factor ×\(Decimal.fixed(factor, 2))"
      )
    }
    var problems = outcome.machineTooSlow ? ["machine factor ×\(Decimal.fixed(factor, 2))"] : []
    problems += slow.map { "\($0.label): ×\(Decimal.fixed($0.ratio, 2))" }
    cases.append(
      JUnitReport.Case(
        name: "\(path): speed", failure: problems.isEmpty ? nil : "slower: " + problems.joined(separator: "; "))
    )
    if outcome.machineTooSlow {
      print(
        "\(path): everything replays ×\(Decimal.fixed(factor, 2)) as fast as the baseline (allowed: ×\(Decimal.fixed(1 - machineTolerance, 2)))"
      )
    }
    if !slow.isEmpty {
      print(
        "\(path): replay got significantly slower relative to the machine factor (tolerance \(Int(tolerance * 100)) %, p < \(alpha)):"
      )
      for speed in slow {
        print(
          "  \(speed.label): \(Decimal.fixed(speed.baseline.mean / 1e6, 2)) -> \(Decimal.fixed(speed.current.mean / 1e6, 2)) M req/s (×\(Decimal.fixed(speed.ratio, 2)), p = \(speed.test.pValue.map { Decimal.fixed($0, 6) } ?? "n/a"))"
        )
      }
    }
    return cases
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
