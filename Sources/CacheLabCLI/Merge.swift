import ArgumentParser
import CacheCore
import Reports

/// `cachelab merge`: joins shard reports into the unsharded report.
struct Merge: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge the CSV reports of a sharded sweep into one.",
    discussion: """
      The result equals the report of the unsharded sweep except for timing columns. Fails \
      (exit 1) when a report's columns differ, a cell is in two reports or any cell is missing.

      Examples:
        cachelab merge shard-*.csv --output sweep.csv
      """)

  @Argument(help: ArgumentHelp("Shard reports (CSV).", valueName: "report.csv"))
  var reports: [String]

  @Option(help: ArgumentHelp("The merged report (written atomically).", valueName: "file.csv"))
  var output: String

  func validate() throws {
    guard !reports.isEmpty else { throw ValidationError("give at least one report to merge") }
    var paths = PathCheck()
    for report in reports { paths.read("report", report) }
    paths.write("--output", output)
    try paths.check()
  }

  func run() throws {
    try CLIErrors.translating {
      let writer = try AtomicFileWriter(path: output)
      var tables: [ReportTable] = []
      for path in reports { tables.append(try ReportTable(contentsOf: path)) }
      let merged = try ReportMerge.merge(tables)
      try writer.write(merged.render())
      try writer.commit()
      print("wrote \(output): \(merged.rows.count) rows from \(reports.count) reports")
    }
  }
}
