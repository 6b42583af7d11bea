import ArgumentParser
import CacheCore
import Engine
import Foundation
import TOML

/// `--latency SPEC` and `--latency-profile LIST` of run, sweep and compare: the latency
/// model every engine of the invocation charges.
struct LatencyOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Latency costs over the defaults and any --latency-profile: KEY=FIXED[+BANDWIDTH],... with keys "
        + LatencySpec.Key.allCases.map(\.rawValue).joined(separator: ", ")
        + " (origin=trace|COST takes each record's latency as the round trip where it has one; disk costs may end "
        + "in ~SPREAD, the p90 of single reads or writes over the line); e.g. "
        + "memory=20us,disk=80us+1.2GB/s,disk-write=150us+800MB/s,origin=trace|45ms+25Mbit/s. See docs/latency.md. "
        + "(default: \(LatencyModel()))",
      valueName: "spec"))
  var latency: String?

  @Option(
    help: ArgumentHelp(
      "Comma-separated latency profiles applied in order over the defaults: names (see 'cachelab profiles') or "
        + "profile files (FILE.toml with the --latency keys as strings).",
      valueName: "list"))
  var latencyProfile: String?

  /// Whether either option was given.
  var requested: Bool { latency != nil || latencyProfile != nil }

  /// The profile files named by `--latency-profile` (for the path checks).
  var profileFiles: [String] {
    (latencyProfile ?? "").split(separator: ",").map(String.init).filter(LatencyProfileFile.isFile)
  }

  /// The model: the defaults, each profile in order, then `--latency`.
  ///
  /// - Throws: ``ConfigurationError`` naming the option, the file and line, or the profile.
  func model() throws -> LatencyModel {
    var model = LatencyModel()
    var made: [String] = []
    for item in (latencyProfile ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if LatencyProfileFile.isFile(item) {
        model = try LatencyProfileFile.read(item).applied(to: model)
      } else {
        do {
          model = try LatencyProfile.registry.named(item).settings().applied(to: model)
        } catch {
          throw ConfigurationError(error.code, "--latency-profile: \(error.message)")
        }
      }
      made.append(item)
    }
    if let latency {
      do { model = try LatencySpec(parsing: latency).applied(to: model) } catch {
        throw ConfigurationError(error.code, "--latency: \(error.message)")
      }
      made.append("--latency")
    }
    model.profile = made.isEmpty ? "default" : made.joined(separator: " + ")
    return model
  }
}

/// A latency profile file: TOML whose top-level keys are `--latency` keys with string values
/// (`disk-read = "85us+3.2GB/s"`), plus optional `name` and `source` strings; tables (such as
/// the `[calibration.*]` that `cachelab calibrate` writes) are notes and not read.
enum LatencyProfileFile {
  /// Whether a `--latency-profile` item names a file rather than a registered profile.
  static func isFile(_ item: String) -> Bool {
    item.lowercased().hasSuffix(".toml") || item.contains("/")
  }

  /// The settings in the file at `path`.
  ///
  /// - Throws: ``ConfigurationError`` as `path:line: message`.
  static func read(_ path: String) throws(ConfigurationError) -> LatencySpec {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigurationError(.invalidValue, "\(path): cannot read the latency profile")
    }
    let table: TOMLTable
    do { table = try TOMLReader.parse(utf8: Array(data)) } catch {
      throw ConfigurationError(.invalidValue, "\(path):\(error.line): \(error.message) (column \(error.column))")
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    func place(_ key: String) -> String {
      let line = lines.firstIndex {
        let text = $0.drop { $0 == " " || $0 == "\t" }
        return text.hasPrefix(key) && text.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }.hasPrefix("=")
          || text.hasPrefix("\"\(key)\"")
      }
      return line.map { "\(path):\($0 + 1)" } ?? path
    }
    var spec = LatencySpec()
    for (key, value) in table.entries {
      if value.table != nil || key == "name" || key == "source" {
        guard value.table != nil || value.string != nil else {
          throw ConfigurationError(.invalidValue, "\(place(key)): '\(key)' must be a string")
        }
        continue
      }
      guard let text = value.string else {
        throw ConfigurationError(
          .invalidValue, "\(place(key)): '\(key)' must be a string such as \"80us+1.2GB/s\", not a \(value.kind)")
      }
      do {
        try spec.set(try LatencySpec.Key(name: key), text: text)
      } catch {
        throw ConfigurationError(error.code, "\(place(key)): \(error.message)")
      }
    }
    return spec
  }
}
