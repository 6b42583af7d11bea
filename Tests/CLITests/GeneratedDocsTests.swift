import ArgumentParser
import CacheLabCLI
import Foundation
import TestSupport
import Testing

/// The generated parts of the documentation are what the command prints today: every block
///
///     <!-- generated: cachelab ARGUMENTS -->
///     …
///     <!-- end generated -->
///
/// in README.md and docs/ holds exactly `cachelab ARGUMENTS` run at 100 columns (a `--markdown`
/// table as it is, anything else in a `text` fence). `bash Scripts/docs.sh` rewrites them all
/// (`CACHELAB_UPDATE_SNAPSHOTS=1`); a changed registry entry, option or help text fails here
/// until they are regenerated.
@Suite struct GeneratedDocsTests {
  static let startMarker = "<!-- generated: cachelab "
  static let endMarker = "<!-- end generated -->"

  struct Block: CustomStringConvertible {
    var file: URL
    var line: Int
    var arguments: [String]
    var lines: Range<Int>
    var description: String {
      "\(DocumentationFiles.relativePath(file)):\(line): cachelab \(arguments.joined(separator: " "))"
    }
  }

  /// The generated blocks of `file`: the lines between each pair of markers.
  static func blocks(in file: URL) throws -> [Block] {
    let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    var result: [Block] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      guard line.hasPrefix(startMarker), line.hasSuffix(" -->") else {
        index += 1
        continue
      }
      let command = line.dropFirst(startMarker.count).dropLast(" -->".count)
      guard let end = lines[(index + 1)...].firstIndex(of: endMarker) else {
        Issue.record("\(DocumentationFiles.relativePath(file)):\(index + 1): a generated block without its end marker")
        break
      }
      result.append(
        Block(
          file: file, line: index + 1, arguments: command.split(separator: " ").map(String.init),
          lines: (index + 1)..<end))
      index = end + 1
    }
    return result
  }

  static func allBlocks() throws -> [Block] { try DocumentationFiles.all.flatMap { try blocks(in: $0) } }

  /// What a block holds: the command's output, fenced unless it is a Markdown table.
  static func content(of arguments: [String]) throws -> String {
    let outcome = try CLI.run(arguments, environment: ["COLUMNS": "100"])
    #expect(outcome.status == 0, "cachelab \(arguments.joined(separator: " ")) exited \(outcome.status)")
    var text = outcome.stdout
    if !text.hasSuffix("\n") { text += "\n" }
    return arguments.contains("--markdown") ? text : "```text\n" + text + "```\n"
  }

  @Test func everyGeneratedBlockIsCurrent() throws {
    let update = ProcessInfo.processInfo.environment["CACHELAB_UPDATE_SNAPSHOTS"] == "1"
    for file in DocumentationFiles.all {
      let blocks = try Self.blocks(in: file)
      guard !blocks.isEmpty else { continue }
      var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
      for block in blocks.reversed() {
        let expected = try Self.content(of: block.arguments)
        let current = lines[block.lines].map { $0 + "\n" }.joined()
        if update {
          lines.replaceSubrange(block.lines, with: expected.components(separatedBy: "\n").dropLast())
        } else {
          #expect(current == expected, "\(block) is stale: run `bash Scripts/docs.sh`")
        }
      }
      if update { try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8) }
    }
  }

  /// The registry tables are generated somewhere in the docs.
  @Test(arguments: [
    "policies --markdown", "formats --markdown", "presets --markdown", "expiries --markdown", "admissions --markdown",
    "columns --markdown", "columns --window --markdown", "profiles --markdown",
  ])
  func registryTableIsInTheDocs(command: String) throws {
    let generated = try Self.allBlocks().map { $0.arguments.joined(separator: " ") }
    #expect(generated.contains(command), "no docs page has a generated block for `cachelab \(command)`")
  }

  /// Every subcommand's help is a generated block on its page, docs/commands/FIRST.md (the help
  /// snapshots: a changed option or help text shows in review as a docs change).
  @Test(arguments: CommandTree.paths)
  func everySubcommandHelpIsOnItsPage(command: [String]) throws {
    let page = Paths.packageRoot.appendingPathComponent("docs/commands/\(command[0]).md")
    let blocks = FileManager.default.fileExists(atPath: page.path) ? try Self.blocks(in: page) : []
    #expect(
      blocks.contains { $0.arguments == command + ["--help"] },
      "docs/commands/\(command[0]).md lacks a generated block for `cachelab \(command.joined(separator: " ")) --help`")
  }
}

/// The command tree of `cachelab`, walked from its configuration: every subcommand path.
enum CommandTree {
  static let paths: [[String]] = walk(CacheLab.self, prefix: [])

  private static func walk(_ command: any ParsableCommand.Type, prefix: [String]) -> [[String]] {
    command.configuration.subcommands.flatMap { sub -> [[String]] in
      let path = prefix + [sub._commandName]
      return [path] + walk(sub, prefix: path)
    }
  }
}

/// docs/benchmarks.md is what `Scripts/benchmarks.py` renders from the measurements in
/// docs/benchmarks.csv: no figure in it is typed by hand.
@Suite struct BenchmarkPageTests {
  @Test func benchmarkPageIsRenderedFromItsMeasurements() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "Scripts/benchmarks.py", "--check"]
    process.currentDirectoryURL = Paths.packageRoot
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }
}
