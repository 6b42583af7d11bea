import Foundation
import TestSupport
import Testing
import Workloads

/// Every subcommand's help renders cleanly: exit 0, no stray line-continuation backslashes,
/// and the custom-engine options state their defaults.
@Suite struct HelpTextTests {
  static let commands: [[String]] =
    [
      ["run"], ["sweep"], ["compare"], ["merge"], ["inspect"], ["regress"], ["gen", "zipf"], ["gen", "http"],
      ["policies"], ["presets"], ["formats"], ["convert"], ["gen"],
    ] + GeneratorRegistry.all.map(\.descriptor.name).filter { $0 != "zipf" }.map { ["gen", $0] }

  @Test(arguments: HelpTextTests.commands)
  func helpRendersCleanly(command: [String]) throws {
    let outcome = try CLI.run(command + ["--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("USAGE: cachelab \(command.joined(separator: " "))"), "\(outcome.stdout)")
    #expect(!outcome.stdout.contains(" \\\n") && !outcome.stdout.hasSuffix("\\"), "a literal backslash in \(command)")
  }

  @Test func customEngineOptionsShowTheirDefaults() throws {
    let help = try CLI.run(["run", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
    for option in ["--expiry", "--write-policy", "--promote", "--disk-backend"] {
      let start = try #require(help.range(of: option))
      let window = help[start.lowerBound...].prefix(400)
      #expect(window.contains("default:"), "\(option) lacks its default")
    }
  }

  /// Options with a fixed set of values list them (argument-parser enums).
  @Test(arguments: [
    (["run"], "--write-policy", "write-through, write-on-evict"), (["run"], "--promote", "none, tracked, untracked"),
    (["gen", "zipf"], "--format", "oracle-general, csv"),
    (["compare"], "--metric", "misses, miss_bytes, hit_ratio, byte_hit_ratio"),
  ])
  func fixedValueOptionsListTheirValues(command: [String], option: String, values: String) throws {
    let help = try CLI.run(command + ["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let start = try #require(help.range(of: option + " <", options: .backwards))
    #expect(help[start.lowerBound...].prefix(300).contains("(values: " + values), "\(option) does not list its values")
  }

  /// Required options come first: `--trace` opens run's options, `--output` gen's, `--baseline` regress's.
  @Test(arguments: [
    (["run"], "--trace"), (["sweep"], "--trace"), (["gen", "http"], "--output"), (["regress"], "--baseline"),
  ])
  func requiredOptionsComeFirst(command: [String], option: String) throws {
    let help = try CLI.run(command + ["--help"]).stdout
    let firstOption = try #require(help.split(separator: "\n").first { $0.hasPrefix("  --") })
    #expect(firstOption.hasPrefix("  \(option) "), "\(command) lists \(firstOption) first")
  }

  /// `cachelab COMMAND --help` at a fixed width of 100 columns.
  static func help(_ command: [String]) throws -> String {
    try CLI.run(command + ["--help"], environment: ["COLUMNS": "100"]).stdout
  }

  /// Every help text equals its snapshot in Tests/CLITests/HelpSnapshots (regenerate with
  /// `CACHELAB_UPDATE_SNAPSHOTS=1 swift test --filter HelpTextTests` after an intended change),
  /// and carries examples.
  @Test(arguments: HelpTextTests.commands)
  func helpMatchesItsSnapshot(command: [String]) throws {
    let text = try Self.help(command)
    #expect(text.contains("Examples:\n  cachelab \(command.joined(separator: " "))"), "\(command) lacks examples")
    let snapshot = Paths.packageRoot.appendingPathComponent(
      "Tests/CLITests/HelpSnapshots/\(command.joined(separator: "-")).txt")
    if ProcessInfo.processInfo.environment["CACHELAB_UPDATE_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(
        at: snapshot.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: snapshot, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: snapshot, encoding: .utf8)
    #expect(text == expected, "help of \(command) changed; update the snapshot if intended")
  }
}
