import ArgumentParser
import CacheCore
import Foundation
import TOML

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
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ValidationError("\(path): cannot read the study file")
    }
    let table: TOMLTable
    do {
      table = try TOMLReader.parse(utf8: Array(data))
    } catch {
      throw ValidationError("\(path):\(error.line): \(error.message) (column \(error.column))")
    }
    let folder = (path as NSString).deletingLastPathComponent
    for key in table.keys where key != "trace" && key != "run" {
      throw ValidationError("\(path): unknown table '\(key)'; a study has [[trace]] tables and a [run] table")
    }
    guard let traces = table["trace"]?.array, !traces.isEmpty else {
      throw ValidationError("\(path): a study needs at least one [[trace]] table with a path")
    }
    let known = ArgumentSpelling.options(of: command == "run" ? Run.self : Sweep.self)
    let shared = try options(table["run"]?.table, file: path, table: "[run]", folder: folder, known: known)
    var tracePaths: [String] = []
    for (number, entry) in traces.enumerated() {
      guard let trace = entry.table, let tracePath = trace["path"]?.string else {
        throw ValidationError("\(path): [[trace]] number \(number + 1) needs a path")
      }
      tracePaths.append(tracePath)
    }
    let names = distinctNames(tracePaths)
    var result: [[String]] = []
    for (number, entry) in traces.enumerated() {
      let trace = entry.table ?? TOMLTable()
      var arguments = [command, "--trace", resolve(tracePaths[number], folder), "--study-file", path]
      arguments += try options(
        trace, file: path, table: "[[trace]] number \(number + 1)", folder: folder, known: known, exclude: ["path"])
      arguments += shared
      if traces.count > 1 { arguments = suffixOutputs(arguments, with: names[number]) }
      result.append(arguments + rest)
    }
    return result
  }

  /// A name per trace for its outputs: the file's stem, or — where stems repeat (`a/web.bin`,
  /// `b/web.bin`) — the stem and the trace's number in the study (`web-1`, `web-2`).
  static func distinctNames(_ paths: [String]) -> [String] {
    let stems = paths.map(stem)
    var counts: [String: Int] = [:]
    for name in stems { counts[name, default: 0] += 1 }
    return stems.enumerated().map { number, name in counts[name]! > 1 ? "\(name)-\(number + 1)" : name }
  }

  /// `text` with its paths resolved against `folder`: the whole value of a path option, the
  /// profile files (not the profile names) of `latency-profile`.
  static func resolvedPaths(_ key: String, _ text: String, _ folder: String) -> String {
    if pathOptions.contains(key) { return resolve(text, folder) }
    guard key == "latency-profile" else { return text }
    return text.split(separator: ",").map { item in
      LatencyProfileFile.isFile(String(item)) ? resolve(String(item), folder) : String(item)
    }.joined(separator: ",")
  }

  /// `--name=value` arguments for every key of `table` (a key must name an option of the
  /// command, other than `config`; values are strings, numbers, booleans or flat arrays).
  static func options(
    _ table: TOMLTable?, file: String, table name: String, folder: String, known: Set<String>,
    exclude: Set<String> = []
  ) throws -> [String] {
    guard let table else { return [] }
    var result: [String] = []
    for key in table.keys where !exclude.contains(key) {
      let option = "--" + (key == "presets" ? "preset" : key)
      guard key != "config", key != "trace" else {
        let reason = key == "config" ? "a study file cannot name another study file" : "traces are [[trace]] tables"
        throw ValidationError("\(file): \(name) key '\(key)': \(reason)")
      }
      guard known.contains(option), !["--help", "--version", "--study-file"].contains(option), !key.contains("=") else {
        let options = known.filter {
          !["--help", "--version", "--config", "--study-file"].contains($0) && !$0.hasPrefix("--experimental")
        }
        let suggestion = Spelling.suggestion(for: key, among: options.map { String($0.dropFirst(2)) })
        throw ValidationError("\(file): \(name) key '\(key)' is not an option of run and sweep\(suggestion)")
      }
      let value = table[key]
      if let flag = value?.boolean {
        if flag { result.append(option) }
      } else if let list = value?.array {
        var items: [String] = []
        for item in list {
          guard let text = item.string ?? item.integer.map({ String($0) }) ?? item.float.map({ "\($0)" }) else {
            throw ValidationError("\(file): \(name) key '\(key)': each item of the array must be a string or number")
          }
          items.append(text)
        }
        let joined = items.joined(separator: ",")
        result.append(option + "=" + (key == "latency-profile" ? resolvedPaths(key, joined, folder) : joined))
      } else if let text = value?.string {
        result.append(option + "=" + resolvedPaths(key, text, folder))
      } else if let number = value?.integer {
        result.append(option + "=" + String(number))
      } else if let number = value?.float {
        result.append(option + "=" + "\(number)")
      } else {
        throw ValidationError(
          "\(file): \(name) key '\(key)' must be a string, number, boolean or array of strings, not a \(value?.kind ?? "nothing")"
        )
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

  /// Each output path with `-stem` before its extension (report folders get `/stem`); the
  /// study's own options come as `--name=value`, the command line's as `--name value`.
  static func suffixOutputs(_ arguments: [String], with stem: String) -> [String] {
    var result = arguments
    for index in result.indices {
      let (option, value, position) = optionValue(result, at: index)
      guard let value, !value.isEmpty, value != "-" else { continue }
      switch option {
      case "--report": result[position] = replacing(result[position], value, with: value + "/" + stem)
      case "--output", "--json", "--window-series":
        let path = value as NSString
        let ext = path.pathExtension
        let renamed = path.deletingPathExtension + "-" + stem + (ext.isEmpty ? "" : "." + ext)
        result[position] = replacing(result[position], value, with: renamed)
      default: break
      }
    }
    return result
  }

  /// The option at `index`, its value and where the value is: `--name=value` in one
  /// argument, or `--name value` in two (nil value when `index` holds no option).
  private static func optionValue(_ arguments: [String], at index: Int) -> (String, String?, Int) {
    let argument = arguments[index]
    guard argument.hasPrefix("--") else { return ("", nil, index) }
    if let equals = argument.firstIndex(of: "=") {
      return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]), index)
    }
    return (argument, index + 1 < arguments.count ? arguments[index + 1] : nil, index + 1)
  }

  private static func replacing(_ argument: String, _ value: String, with new: String) -> String {
    argument.hasSuffix("=" + value) ? String(argument.dropLast(value.count)) + new : new
  }

  /// The study file an expanded invocation came from, nil for a plain command line.
  static func source(of arguments: [String]) -> String? {
    arguments.firstIndex(of: "--study-file").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
  }

  /// Writes the effective command line beside a report (`DIR/study-command.txt`).
  static func record(_ arguments: [String]) {
    var folder: String?
    var shown: [String] = []
    var skip = false
    for index in arguments.indices {
      if skip {
        skip = false
        continue
      }
      let (option, value, position) = optionValue(arguments, at: index)
      if option == "--report" { folder = value }
      if option == "--study-file" {
        skip = position != index
        continue
      }
      // The study's own `--name=value` reads as typed options do.
      if let value, position == index { shown += [option, value] } else { shown.append(arguments[index]) }
    }
    guard let folder else { return }
    let line = "cachelab " + shown.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n"
    try? line.write(toFile: folder + "/study-command.txt", atomically: true, encoding: .utf8)
  }
}
