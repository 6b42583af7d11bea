import ArgumentParser
import CacheCore
import Replay
import Reports

/// `cachelab compare`: configurations or report files side by side, with significance.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare configurations or report files, with confidence intervals and Welch's t-test.",
    discussion: """
      Either give report files (CSV from run/sweep, e.g. a baseline and a candidate; repeats \
      or windows in them are the samples), or replay configurations with the options of \
      'run' plus --repeat N or --window W to get samples. Every configuration is compared \
      with the first: the difference of the means, its 95 % confidence interval and the \
      two-sided p-value of Welch's t-test.
      """)

  @Argument(help: ArgumentHelp("Report files to compare (instead of --trace).", valueName: "report.csv"))
  var reports: [String] = []

  @OptionGroup var options: ReplayOptions

  @Option(
    help: ArgumentHelp(
      "Metric to compare: \(ReportStatistics.metrics.joined(separator: ", ")).", valueName: "column"))
  var metric = "hit_ratio"

  @Option(help: ArgumentHelp("Write the comparison as CSV (atomically).", valueName: "file.csv"))
  var comparison: String?

  func validate() throws {
    if reports.isEmpty {
      guard options.trace != nil else {
        throw ValidationError("give report files, or --trace with --policies/--sizes or --preset to replay")
      }
      guard options.repeats > 1 || options.window != nil else {
        throw ValidationError(
          "comparing configurations needs samples: add --window (e.g. 100000r or 1h) or --repeat N")
      }
    } else {
      guard options.trace == nil else { throw ValidationError("give report files or --trace, not both") }
    }
  }

  func run() throws {
    try CLIErrors.translating {
      let writer = try comparison.map { path in try AtomicFileWriter(path: path) }
      var tables: [ReportTable] = []
      if reports.isEmpty {
        let results = try ReplayExecution.perform(options)
        tables = [try ReportTable(path: options.trace ?? "run", text: CSVReport.render(results))]
      } else {
        for path in reports { tables.append(try ReportTable(contentsOf: path)) }
      }
      let result = try ReportComparison(tables, metric: metric)
      if let writer {
        try writer.write(result.csv())
        try writer.commit()
      }
      print(
        result.render() + ReplayExecution.written(options) + (comparison.map { "wrote \($0)\n" } ?? ""), terminator: "")
    }
  }
}
