import ArgumentParser
import Reports

/// `cachelab columns`: the report's CSV columns (or the window series') with their meanings.
struct Columns: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "columns",
    abstract: "List the CSV report's columns (or the window series') and what each means.",
    discussion: "Examples:\n  cachelab columns\n  cachelab columns --window\n  cachelab columns --markdown\n")

  @Flag(help: "The window-series CSV's columns (--window-series, windows.csv) instead of the report's.")
  var window = false

  @Flag(help: "Print the table of docs/reports.md (Markdown), generated from the column registry.")
  var markdown = false

  func run() {
    let columns = window ? WindowSeries.columns : ReportColumn.standard.map { ($0.name, $0.meaning) }
    if markdown {
      print(ReportColumn.markdownTable(columns), terminator: "")
    } else {
      let width = columns.map(\.name.count).max() ?? 0
      for (name, meaning) in columns {
        print(name + String(repeating: " ", count: width - name.count + 2) + meaning)
      }
    }
  }
}
