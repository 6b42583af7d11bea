import Foundation
import TestSupport
import Testing

/// `run|sweep --config study.toml`: a versioned study, one invocation per trace, the command
/// line overriding the file, paths relative to the file, the effective command recorded.
@Suite(.serialized) struct StudyFileTests {
  static func rows(_ path: String) throws -> Int {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count - 1
  }

  @Test func theExampleStudyRunsEveryTraceAndTheCommandLineWins() throws {
    let folder = Paths.temporaryDirectory("study")
    let example = try String(
      contentsOf: Paths.packageRoot.appendingPathComponent("Examples/study.toml"), encoding: .utf8)
    // The same study, placed beside the repository's traces through an absolute path.
    let study = folder.appendingPathComponent("study.toml").path
    let text = example.replacingOccurrences(of: "../Traces/", with: Paths.packageRoot.path + "/Traces/")
      .replacingOccurrences(of: "../Reports/local/study.csv", with: "out/study.csv")
    try text.write(toFile: study, atomically: true, encoding: .utf8)
    let outcome = try CLI.run(["run", "--config", study])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    // 2 traces: 4 policies × 2 sizes × 2 repeats each, outputs named after the traces.
    #expect(try Self.rows(folder.path + "/out/study-zipf-demo.csv") == 16)
    #expect(try Self.rows(folder.path + "/out/study-http-demo.csv") == 16)
    let overridden = try CLI.run(["run", "--config", study, "--sizes", "0.05", "--repeat", "1"])
    #expect(overridden.status == 0)
    #expect(try Self.rows(folder.path + "/out/study-zipf-demo.csv") == 4)
  }

  @Test func aReportRecordsTheEffectiveCommand() throws {
    let folder = Paths.temporaryDirectory("study-report")
    let study = folder.appendingPathComponent("s.toml").path
    let trace = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path
    try """
    [[trace]]
    path = "\(trace)"
    [run]
    policies = ["lru"]
    sizes = ["1MiB"]
    report = "rep"
    quiet = true
    """.write(toFile: study, atomically: true, encoding: .utf8)
    #expect(try CLI.run(["sweep", "--config", study]).status == 0)
    let recorded = try String(contentsOfFile: folder.path + "/rep/study-command.txt", encoding: .utf8)
    #expect(recorded.hasPrefix("cachelab sweep --trace \(trace)") && recorded.contains("--report \(folder.path)/rep"))
  }

  @Test func badStudiesAreUsageErrors() throws {
    let folder = Paths.temporaryDirectory("study-bad")
    let broken = folder.appendingPathComponent("broken.toml").path
    try "[[trace]\npath = 1\n".write(toFile: broken, atomically: true, encoding: .utf8)
    let parse = try CLI.run(["run", "--config", broken])
    #expect(parse.status == 64 && parse.stderr.contains("broken.toml:1:"), "\(parse.stderr)")
    let typo = folder.appendingPathComponent("typo.toml").path
    try "[[trace]]\npath = \"x.bin\"\n[run]\npolices = [\"lru\"]\n".write(
      toFile: typo, atomically: true, encoding: .utf8)
    let misspelt = try CLI.run(["run", "--config", typo])
    #expect(
      misspelt.status == 64
        && misspelt.stderr.contains(
          "typo.toml: [run] key 'polices' is not an option of run and sweep (did you mean 'policies'?)"),
      "\(misspelt.stderr)")
    let noTrace = folder.appendingPathComponent("none.toml").path
    try "[run]\npolicies = [\"lru\"]\n".write(toFile: noTrace, atomically: true, encoding: .utf8)
    #expect(try CLI.run(["run", "--config", noTrace]).stderr.contains("needs at least one [[trace]]"))
    #expect(try CLI.run(["compare", "--trace", "x", "--config", noTrace]).status == 64)
  }
}
