import ArgumentParser
import CacheCore
import Traces

/// `cachelab formats`: the trace formats with their parameters.
struct Formats: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "formats",
    abstract: "List the trace formats with their parameters.", discussion: "Examples:\n  cachelab formats\n")

  @Flag(help: "Print the format table of docs/trace-formats.md (Markdown), generated from the registry.")
  var markdown = false

  func run() {
    print(markdown ? Self.markdown() : Self.listing(), terminator: "")
  }

  static func listing() -> String {
    TraceFormat.registry.listing()
  }

  /// The format table of docs/trace-formats.md: name, file names it is recognised by, parameters with
  /// defaults and aliases, what it is.
  static func markdown() -> String {
    TraceFormat.registry.markdownTable([
      ("format", { "`\($0.name)`" }),
      ("file names", { $0.fileSuffixes.isEmpty ? "—" : $0.fileSuffixes.map { "`*\($0)`" }.joined(separator: ", ") }),
      ("parameters (defaults)", \.parametersCell), ("what it is", \.summary),
    ])
  }
}
