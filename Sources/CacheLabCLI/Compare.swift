import ArgumentParser
import CacheCore
import Replay
import Reports

/// `cachelab compare`: configurations or report files side by side, with the test their samples allow.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare configurations or report files: differences, 95 % intervals and the right significance test.",
    discussion: """
      Either replay configurations with the options of 'run', or give report files: run \
      reports (repeats are rows differing only in seed) or window-series files \
      (--window-series), whose windows can be paired. Like is compared with like: every \
      policy against the baseline policy at the same size, every preset or engine against \
      the baseline engine, each report file against the first; --baseline NAME picks \
      another baseline. Each line names its test: paired-t (windows of the same trace and \
      window spec, or repeats sharing the seed of a synthetic trace: t-test on the per-pair \
      differences, with Wilcoxon's signed-rank p as a distribution-free check), welch \
      (unpaired samples), exact (deterministic configurations without windows: the exact \
      difference, no test needed) or none (a single run of a randomised policy). Windows \
      that are autocorrelated are merged into batch means. With several tests, Holm-adjusted \
      p-values are added.

      Examples:
        cachelab compare --trace Traces/zipf-demo.oracleGeneral.bin --policies lru,sieve --sizes 0.05 --window 10000r
        cachelab compare before.csv after.csv --metric byte_hit_ratio
      """)

  @Argument(
    help: ArgumentHelp(
      "Report files to compare (instead of --trace): run reports or window-series files.", valueName: "report.csv"))
  var reports: [String] = []

  @OptionGroup var options: ReplayOptions

  @Option(help: ArgumentHelp("The report column to compare.", valueName: "column"))
  var metric: Metric = .hitRatio

  @Option(
    help: ArgumentHelp(
      "The configuration the others are compared with: a policy (lru, clock:bits=2), a preset, or a report file; default: the first.",
      valueName: "name"))
  var baseline: String?

  @Option(help: ArgumentHelp("Write the comparison as CSV (atomically).", valueName: "file.csv"))
  var comparison: String?

  func validate() throws {
    var paths = options.paths()
    for report in reports { paths.read("report", report) }
    paths.write("--comparison", comparison)
    try paths.check()
    if reports.isEmpty {
      guard options.trace != nil else {
        throw ValidationError("give report files, or --trace with --policies/--sizes or --preset to replay")
      }
      if let baseline, let configuration = try? options.configurations().first {
        let names =
          configuration.policies.map { ($0.description, false) } + configuration.engines.map { ($0.label, true) }
        guard names.contains(where: { ConfigurationSamples.name(baseline, selects: $0.0, label: $0.0, isEngine: $0.1) })
        else {
          throw ValidationError(
            "--baseline '\(baseline)' names no configuration; there are: \(names.map(\.0).joined(separator: ", "))")
        }
      }
    } else {
      guard options.trace == nil else { throw ValidationError("give report files or --trace, not both") }
    }
  }

  func run() throws {
    try CLIErrors.translating {
      let writer = try comparison.map { path in try AtomicFileWriter(path: path) }
      var sources: [[ConfigurationSamples]] = []
      if reports.isEmpty {
        let results = try ReplayExecution.perform(options, baseline: baseline)
        sources = [ConfigurationSamples.collect(results, metric: metric)]
      } else {
        for path in reports {
          let samples = try ConfigurationSamples.collect(ReportTable(contentsOf: path), metric: metric)
          guard !samples.isEmpty else {
            throw Failure(message: "\(path): holds no configurations (no rows): nothing to compare")
          }
          sources.append(samples)
        }
      }
      let result = try ReportComparison(sources, metric: metric, baseline: baseline)
      if let writer {
        try writer.write(result.csv())
        try writer.commit()
      }
      print(
        result.render() + ReplayExecution.written(options) + (comparison.map { "wrote \($0)\n" } ?? ""), terminator: "")
    }
  }
}

extension Metric: ExpressibleByArgument {
  public init?(argument: String) {
    guard let metric = Metric.named(argument) else { return nil }
    self = metric
  }

  public static var allValueStrings: [String] { Metric.names }

  public var defaultValueDescription: String { name }
}
