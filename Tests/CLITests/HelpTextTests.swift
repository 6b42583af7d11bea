import Foundation
import TestSupport
import Testing

/// Every subcommand's help renders cleanly: exit 0, no stray line-continuation backslashes,
/// and the custom-engine options state their defaults.
@Suite struct HelpTextTests {
  /// Every subcommand, walked from the command tree.
  static let commands: [[String]] = CommandTree.paths

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

  /// Every help text carries examples (its full text is a generated block in docs/commands/,
  /// which `GeneratedDocsTests` keeps current).
  @Test(arguments: HelpTextTests.commands)
  func helpHasExamples(command: [String]) throws {
    let text = try CLI.run(command + ["--help"], environment: ["COLUMNS": "100"]).stdout
    #expect(text.contains("Examples:\n  cachelab \(command.joined(separator: " "))"), "\(command) lacks examples")
  }
}
