import Foundation
import Reports
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The third round of faults (../shared/design/fault-cases-3.md) about what a run writes:
/// no output destroys an input or another output (by file identity), outputs that cannot be
/// written are refused before the replay, report folders never mix runs, interrupted runs
/// leave nothing behind, and two processes never share a file store.
@Suite(.serialized) struct FaultCases3OutputTests {
  /// A scratch folder with a tiny CSV trace in it.
  struct Scratch {
    let folder = Paths.temporaryDirectory("faults3")
    var path: String { folder.path }

    func file(_ name: String, _ text: String) -> String {
      let path = folder.appendingPathComponent(name).path
      FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
      return path
    }

    func trace(_ name: String) -> String { file(name, "time,key,size\n1,a,10\n2,b,20\n3,a,10\n") }

    func zipf(_ name: String, requests: Int = 20000, objects: Int = 2000, seed: Int = 1) throws -> String {
      let path = folder.appendingPathComponent(name).path
      let outcome = try CLI.run([
        "gen", "zipf", "--requests", "\(requests)", "--objects", "\(objects)", "--seed", "\(seed)", "--output", path,
        "--quiet",
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      return path
    }
  }

  static let trace = "time,key,size\n1,a,10\n2,b,20\n3,a,10\n"

  /// D02: an output on the trace is a usage error and the trace survives — also when the
  /// output is spelled differently (a symbolic link, `./`, a report folder holding it).
  @Test func d02AnOutputOnTheTraceIsRefusedAndTheTraceSurvives() throws {
    let scratch = Scratch()
    let t = scratch.trace("t.csv")
    let link = scratch.path + "/link.csv"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: t)
    let run = ["run", "--trace", t, "--policies", "lru", "--sizes", "1MiB", "--quiet"]
    for (extra, option) in [
      (["--output", t], "--output"), (["--output", link], "--output"),
      (["--output", scratch.path + "/./t.csv"], "--output"), (["--json", t], "--json"),
      (["--window", "1r", "--window-series", t], "--window-series"),
    ] {
      let outcome = try CLI.run(run + extra)
      #expect(outcome.status == 64, "\(extra): \(outcome.stderr)")
      #expect(outcome.stderr.contains(option) && outcome.stderr.contains("is the --trace"), "\(outcome.stderr)")
      #expect(try String(contentsOfFile: t, encoding: .utf8) == Self.trace, "\(extra) changed the trace")
    }
    let inspect = try CLI.run(["inspect", t, "--output", link])
    #expect(inspect.status == 64, "\(inspect.stderr)")
    try FileManager.default.createDirectory(atPath: scratch.path + "/rep", withIntermediateDirectories: true)
    let inReport = scratch.trace("rep/report.csv")
    let report = try CLI.run([
      "run", "--trace", inReport, "--format", "csv", "--policies", "lru", "--sizes", "1MiB", "--quiet", "--report",
      scratch.path + "/rep",
    ])
    #expect(report.status == 64 && report.stderr.contains("--report (report.csv)"), "\(report.stderr)")
    #expect(try String(contentsOfFile: inReport, encoding: .utf8) == Self.trace)
    let convert = try CLI.run(["convert", t, link])
    #expect(convert.status == 64, "\(convert.stderr)")
    #expect(try String(contentsOfFile: t, encoding: .utf8) == Self.trace)
  }

  /// D15: two outputs on one file are refused, naming both options.
  @Test func d15TwoOutputsOnOneFileAreRefused() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 5000, objects: 500)
    let run = ["run", "--trace", z, "--policies", "lru", "--sizes", "0.1", "--quiet"]
    let both = try CLI.run(run + ["--output", scratch.path + "/r.csv", "--json", scratch.path + "/./r.csv"])
    #expect(both.status == 64 && both.stderr.contains("--json") && both.stderr.contains("--output"), "\(both.stderr)")
    let series = try CLI.run(
      run + ["--window", "1000r", "--output", scratch.path + "/s.csv", "--window-series", scratch.path + "/s.csv"])
    #expect(series.status == 64 && series.stderr.contains("one file"), "\(series.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/r.csv"))
    let merge = try CLI.run(["merge", z, "--output", z])
    #expect(merge.status == 64, "\(merge.stderr)")
  }

  /// D17: an output that cannot be written fails before the replay, as a usage error.
  @Test func d17UnwritableOutputsAreRefusedBeforeTheReplay() throws {
    let scratch = Scratch()
    let file = scratch.file("afile", "")
    // 20 million requests would take many seconds: a refusal must come first.
    let run = ["run", "--trace", "gen:zipf:requests=20000000", "--policies", "lru", "--sizes", "0.1", "--quiet"]
    let report = try CLI.run(run + ["--report", file])
    #expect(report.status == 64 && report.stderr.contains("is a file, not a folder"), "\(report.stderr)")
    let output = try CLI.run(run + ["--output", file + "/x.csv"])
    #expect(output.status == 64 && output.stderr.contains("is a file, not a folder"), "\(output.stderr)")
    let folder = try CLI.run(run + ["--output", scratch.path])
    #expect(folder.status == 64 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
  }

  /// D13: a second report into one folder leaves nothing of the first.
  @Test func d13AReportFolderNeverMixesTwoRuns() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin")
    let folder = scratch.path + "/rep"
    let first = try CLI.run([
      "run", "--trace", z, "--policies", "lru,fifo", "--sizes", "0.01,0.1", "--window", "1000r", "--quiet", "--report",
      folder,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder + "/windows.csv"))
    let notes = scratch.file("rep/notes.txt", "mine")
    let second = try CLI.run([
      "run", "--trace", z, "--policies", "sieve", "--sizes", "0.05", "--quiet", "--report", folder,
    ])
    #expect(second.status == 0, "\(second.stderr)")
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
    #expect(!names.contains("windows.csv") && !names.contains("hit-ratio-over-time.svg"), "\(names)")
    #expect(names.contains("notes.txt"), "a file the report does not own stays: \(names)")
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "mine")
    let table = try ReportTable(contentsOf: folder + "/report.csv")
    let policy = try table.column("policy")
    #expect(Set(table.rows.map { $0[policy] }) == ["sieve"])
  }

  /// D11: traces of a study with the same file stem write distinct outputs.
  @Test func d11StudyTracesWithOneStemWriteDistinctOutputs() throws {
    let scratch = Scratch()
    for folder in ["a", "b"] {
      try FileManager.default.createDirectory(atPath: scratch.path + "/" + folder, withIntermediateDirectories: true)
    }
    _ = try scratch.zipf("a/web.oracleGeneral.bin", requests: 5000, objects: 500, seed: 1)
    _ = try scratch.zipf("b/web.oracleGeneral.bin", requests: 5000, objects: 5000, seed: 2)
    let study = scratch.file(
      "study.toml",
      """
      [[trace]]
      path = "a/web.oracleGeneral.bin"
      [[trace]]
      path = "b/web.oracleGeneral.bin"
      [run]
      policies = ["lru"]
      sizes = ["0.1"]
      output = "out/study.csv"
      report = "rep"

      """)
    let outcome = try CLI.run(["run", "--config", study])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let first = try ReportTable(contentsOf: scratch.path + "/out/study-web-1.csv")
    let second = try ReportTable(contentsOf: scratch.path + "/out/study-web-2.csv")
    #expect(first.rows[0][try first.column("trace")].hasSuffix("a/web.oracleGeneral.bin"))
    #expect(second.rows[0][try second.column("trace")].hasSuffix("b/web.oracleGeneral.bin"))
    for name in ["web-1", "web-2"] {
      #expect(FileManager.default.fileExists(atPath: scratch.path + "/rep/\(name)/report.csv"), "rep/\(name)")
    }
    // A study key naming the study file itself as an output is refused.
    let own = scratch.file(
      "own.toml",
      "[[trace]]\npath = \"a/web.oracleGeneral.bin\"\n[run]\npolicies = [\"lru\"]\nsizes = [\"0.1\"]\noutput = \"own.toml\"\n"
    )
    let refused = try CLI.run(["run", "--config", own])
    #expect(refused.status == 64 && refused.stderr.contains("own.toml"), "\(refused.stderr)")
    #expect(try String(contentsOfFile: own, encoding: .utf8).hasPrefix("[[trace]]"))
  }

  /// D09: SIGINT and SIGTERM during a `gen:` run remove the generated trace and the output's
  /// temporary file; a later run removes what a killed run (its process gone) left.
  @Test func d09InterruptedRunsLeaveNothingBehind() throws {
    for signal in [SIGINT, SIGTERM] {
      let scratch = Scratch()
      let temporary = scratch.path + "/tmp"
      try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
      // The test runner's threads block most signals and a spawned child inherits that mask:
      // start cachelab as a shell would, with SIGINT and SIGTERM unblocked and at default.
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "python3", "-c",
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
          + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)]; "
          + "os.execv(sys.argv[1], sys.argv[1:])",
        CLI.binary, "run", "--trace", "gen:zipf:requests=3000000", "--policies", "hyperbolic,wtinylfu-lcs", "--sizes",
        "0.1",
        "--output", scratch.path + "/out.csv", "--quiet",
      ]
      process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }
      try process.run()
      // Wait for the trace being generated to appear (generating and replaying it take seconds).
      let started = Waiting.until(seconds: 300) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        return names.contains { $0.hasPrefix("cachelab-gen-") }
      }
      #expect(started && process.isRunning, "the generated trace never appeared while the run ran")
      kill(process.processIdentifier, signal)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
      let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
      #expect(left.isEmpty, "left in TMPDIR: \(left)")
      let beside = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains(".tmp-") }
      #expect(beside.isEmpty, "left beside the output: \(beside)")
    }
    // A leftover of a process that no longer runs is removed by the next gen: run.
    let scratch = Scratch()
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let stale = scratch.file("cachelab-gen-\(gone.processIdentifier)-0.oracleGeneral.bin", "x")
    let later = try CLI.run(
      ["run", "--trace", "gen:zipf:requests=1000", "--policies", "lru", "--sizes", "0.1", "--quiet"],
      environment: ["TMPDIR": scratch.path])
    #expect(later.status == 0, "\(later.stderr)")
    #expect(!FileManager.default.fileExists(atPath: stale))
  }

  /// D07: a second process on a file store that another holds is refused, naming the folder.
  @Test func d07TwoProcessesNeverShareAFileStore() throws {
    let scratch = Scratch()
    let trace = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path
    let store = scratch.path + "/store"
    let run = ["run", "--trace", trace, "--preset", "pincache", "--disk-backend", "file:" + store, "--quiet"]
    let first = try CLI.run(run)
    #expect(first.status == 0, "\(first.stderr)")
    let engineFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: store).first)
    // Hold the store as a running cachelab would.
    let descriptor = open(store + "/" + engineFolder, O_RDONLY | O_DIRECTORY)
    #expect(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    let second = try CLI.run(run)
    #expect(second.status == 1, "\(second.stderr)")
    #expect(
      second.stderr.contains(engineFolder) && second.stderr.contains("another cachelab process"), "\(second.stderr)")
    close(descriptor)
    let third = try CLI.run(run)
    #expect(third.status == 0, "released with its holder: \(third.stderr)")
  }
}
