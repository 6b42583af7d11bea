import ArgumentParser
import Foundation
import TOMLKit

/// A study file (`run|sweep --config FILE`): TOML whose keys are the command-line option
/// names, so a whole study can be versioned and re-run. One or more `[[trace]]` tables
/// (`path`, optional `format`, `ignore-size`, `warmup`) and a `[run]` table (`policies`,
/// `presets`, `sizes` as arrays of strings, plus any other option). Each trace becomes one
/// invocation: the study's options first, then the command line's, which win. Relative paths
/// (traces and outputs) are resolved against the study file's folder; with several traces,
/// each output gets the trace's name appended.
enum StudyFile {
  /// Options whose values are paths, resolved against the study's folder.
  static let pathOptions: Set<String> = ["path", "output", "json", "report", "window-series"]

  /// The argument lists `arguments` stands for: nil without `--config`, else one per trace.
  static func expand(_ arguments: [String]) throws -> [[String]]? {
    guard let command = arguments.first, command == "run" || command == "sweep" else { return nil }
    var rest = Array(arguments.dropFirst())
    guard let index = rest.firstIndex(where: { $0 == "--config" || $0.hasPrefix("--config=") }) else { return nil }
    let path: String
    if rest[index] == "--config" {
      guard index + 1 < rest.count else { throw ValidationError("--config needs a study file (TOML)") }
      path = rest[index + 1]
      rest.removeSubrange(index...(index + 1))
    } else {
      path = String(rest[index].dropFirst("--config=".count))
      rest.remove(at: index)
    }
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw ValidationError("\(path): cannot read the study file")
    }
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw ValidationError("\(path):\(error.source.begin.line): \(error.description)")
    }
    let folder = (path as NSString).deletingLastPathComponent
    for key in table.keys where key != "trace" && key != "run" {
      throw ValidationError("\(path): unknown table '\(key)'; a study has [[trace]] tables and a [run] table")
    }
    guard let traces = table["trace"]?.array, !traces.isEmpty else {
      throw ValidationError("\(path): a study needs at least one [[trace]] table with a path")
    }
    let shared = try options(table["run"]?.table, file: path, folder: folder, exclude: [])
    var result: [[String]] = []
    for (number, entry) in traces.enumerated() {
      guard let trace = entry.table, let tracePath = trace["path"]?.string else {
        throw ValidationError("\(path): [[trace]] number \(number + 1) needs a path")
      }
      var arguments = [command, "--trace", resolve(tracePath, folder)]
      arguments += try options(trace, file: path, folder: folder, exclude: ["path"])
      arguments += shared
      if traces.count > 1 { arguments = suffixOutputs(arguments, with: stem(tracePath)) }
      result.append(arguments + rest)
    }
    return result
  }

  /// `--name value` pairs for every key of `table`.
  static func options(_ table: TOMLTable?, file: String, folder: String, exclude: Set<String>) throws -> [String] {
    guard let table else { return [] }
    var result: [String] = []
    for key in table.keys where !exclude.contains(key) {
      let option = "--" + (key == "presets" ? "preset" : key)
      let value = table[key]
      if let flag = value?.bool {
        if flag { result.append(option) }
      } else if let list = value?.array {
        result += [
          option,
          list.map { $0.string ?? $0.int.map(String.init) ?? $0.double.map { "\($0)" } ?? "" }.joined(separator: ","),
        ]
      } else if let text = value?.string {
        result += [option, pathOptions.contains(key) ? resolve(text, folder) : text]
      } else if let number = value?.int {
        result += [option, String(number)]
      } else if let number = value?.double {
        result += [option, "\(number)"]
      } else {
        throw ValidationError("\(file): '\(key)' must be a string, number, boolean or array of strings")
      }
    }
    return result
  }

  static func resolve(_ path: String, _ folder: String) -> String {
    path.hasPrefix("/") || folder.isEmpty || path == "-" ? path : folder + "/" + path
  }

  static func stem(_ path: String) -> String {
    let name = (path as NSString).lastPathComponent
    return name.split(separator: ".").first.map(String.init) ?? name
  }

  /// Each output path with `-stem` before its extension (report folders get `/stem`).
  static func suffixOutputs(_ arguments: [String], with stem: String) -> [String] {
    var result = arguments
    for index in result.indices.dropLast() {
      switch result[index] {
      case "--report": result[index + 1] += "/" + stem
      case "--output", "--json", "--window-series":
        let value = result[index + 1] as NSString
        let ext = value.pathExtension
        result[index + 1] = value.deletingPathExtension + "-" + stem + (ext.isEmpty ? "" : "." + ext)
      default: break
      }
    }
    return result
  }

  /// Writes the effective command line beside a report (`DIR/study-command.txt`).
  static func record(_ arguments: [String]) {
    guard let index = arguments.lastIndex(of: "--report"), index + 1 < arguments.count else { return }
    let line = "cachelab " + arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n"
    try? line.write(toFile: arguments[index + 1] + "/study-command.txt", atomically: true, encoding: .utf8)
  }
}
