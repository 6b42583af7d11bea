import ArgumentParser
import Traces

/// `cachelab formats`: the trace formats with their parameters.
struct Formats: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "formats",
    abstract: "List the trace formats with their parameters.", discussion: "Examples:\n  cachelab formats\n")

  func run() {
    print(Self.listing(), terminator: "")
  }

  static func listing() -> String {
    var text = ""
    let width = TraceFormat.all.map(\.name.count).max() ?? 0
    for format in TraceFormat.all {
      let pad = String(repeating: " ", count: width - format.name.count)
      text += "\(format.name)\(pad)  \(format.summary)\n"
      let indent = String(repeating: " ", count: width + 2)
      for parameter in format.parameters {
        text += "\(indent)\(parameter.name)=\(parameter.defaultValue)  \(parameter.help)\n"
      }
    }
    return text
  }
}
