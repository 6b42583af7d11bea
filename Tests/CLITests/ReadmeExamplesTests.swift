import Foundation
import TestSupport
import Testing

/// Every example in the README and docs/ that shows its output is run, in a scratch copy of the
/// repository's traces and baseline, with the built `cachelab` on the PATH, and must print what the page says
/// (timing fields aside). Examples are either a `sh` block followed by "prints" and an output
/// block, or an output block whose first line is `$ command`.
@Suite(.serialized) struct ReadmeExamplesTests {
  struct Example: CustomStringConvertible {
    var page: String
    var line: Int
    var commands: [String]
    var expected: String

    var location: String { "\(page):\(line)" }
    var description: String { "\(location): \(commands.joined(separator: "; "))" }
  }

  /// The runnable examples of every page, in page order.
  static func examples() -> [Example] {
    DocumentationFiles.all.flatMap { file in
      examples(
        in: (try? String(contentsOf: file, encoding: .utf8)) ?? "", page: DocumentationFiles.relativePath(file))
    }
  }

  /// The runnable examples of one page's `text`, in order.
  static func examples(in text: String, page: String) -> [Example] {
    let lines = text.components(separatedBy: "\n")
    var blocks: [(start: Int, language: String, body: [String])] = []
    var index = 0
    while index < lines.count {
      guard lines[index].hasPrefix("```") else {
        index += 1
        continue
      }
      let language = String(lines[index].dropFirst(3))
      var body: [String] = []
      var end = index + 1
      while end < lines.count, !lines[end].hasPrefix("```") {
        body.append(lines[end])
        end += 1
      }
      blocks.append((index + 1, language, body))
      index = end + 1
    }
    var result: [Example] = []
    for (number, block) in blocks.enumerated() {
      if block.language.isEmpty, let first = block.body.first, first.hasPrefix("$ ") {
        var command = String(first.dropFirst(2))
        var rest = block.body.dropFirst()
        while command.hasSuffix("\\"), let next = rest.first {
          command = String(command.dropLast()) + " " + next.trimmingCharacters(in: .whitespaces)
          rest = rest.dropFirst()
        }
        result.append(
          Example(page: page, line: block.start, commands: [command], expected: rest.joined(separator: "\n")))
      } else if block.language == "sh", number + 1 < blocks.count, blocks[number + 1].language.isEmpty {
        let next = blocks[number + 1]
        let between = lines[(block.start + block.body.count)..<(next.start - 1)].joined(separator: " ")
        guard between.contains("prints") else { continue }
        var commands: [String] = []
        for line in block.body where !line.trimmingCharacters(in: .whitespaces).isEmpty {
          if let last = commands.last, last.hasSuffix("\\") {
            commands[commands.count - 1] = String(last.dropLast()) + " " + line.trimmingCharacters(in: .whitespaces)
          } else {
            commands.append(line)
          }
        }
        result.append(
          Example(page: page, line: block.start, commands: commands, expected: next.body.joined(separator: "\n")))
      }
    }
    return result
  }

  /// The text with timing fields removed: the header's seconds, and the `M req/s` column.
  static func normalized(_ text: String) -> String {
    var output: [String] = []
    var inSpeedTable = false
    for raw in text.components(separatedBy: "\n") {
      var words = raw.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      if words.isEmpty {
        inSpeedTable = false
        output.append("")
        continue
      }
      if words.count >= 2, words[words.count - 1] == "s", Double(words[words.count - 2]) != nil {
        words[words.count - 2] = "T"
      }
      if words.suffix(2) == ["M", "req/s"] {
        inSpeedTable = true
      } else if inSpeedTable, Double(words[words.count - 1]) != nil {
        words[words.count - 1] = "T"
      }
      output.append(words.joined(separator: " "))
    }
    return output.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func theReadmeHasExamplesToRun() {
    #expect(Self.examples().filter { $0.page == "README.md" }.count >= 3)
  }

  @Test(arguments: ReadmeExamplesTests.examples().map(\.location))
  func exampleOutputIsWhatThePageSays(location: String) throws {
    let example = try #require(Self.examples().first { $0.location == location })
    let needsShared = example.commands.contains { $0.contains("../shared/") }
    if needsShared, !FileManager.default.fileExists(atPath: Paths.shared.path) {
      try #require(!Paths.isCI, "\(example) needs ../shared, which CI must have")
      print("skipping \(example): ../shared is not here")
      return
    }
    let scratch = Paths.temporaryDirectory("readme")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let work = scratch.appendingPathComponent("main")
    let traces = work.appendingPathComponent("Traces")
    try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
    // The committed traces only: Traces/local (git-ignored benchmark traces, often gigabytes)
    // stays behind.
    let source = Paths.packageRoot.appendingPathComponent("Traces")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != "local" {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: traces.appendingPathComponent(name))
    }
    // The committed baseline too, for the regression gate's example.
    let reports = work.appendingPathComponent("Reports")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Paths.packageRoot.appendingPathComponent("Reports/baseline"), to: reports.appendingPathComponent("baseline"))
    try? FileManager.default.createSymbolicLink(
      at: scratch.appendingPathComponent("shared"), withDestinationURL: Paths.shared)
    let binaryFolder = URL(fileURLWithPath: CLIBinary.path).deletingLastPathComponent().path
    var printed = ""
    for command in example.commands {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command + " 2>&1"]
      process.currentDirectoryURL = work
      var environment = ProcessInfo.processInfo.environment
      environment["PATH"] = binaryFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      process.environment = environment
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      printed += String(decoding: data, as: UTF8.self)
      #expect(process.terminationStatus == 0, "\(example): `\(command)` exited \(process.terminationStatus)")
    }
    #expect(Self.normalized(printed) == Self.normalized(example.expected), "\(example)\nprinted:\n\(printed)")
  }
}
