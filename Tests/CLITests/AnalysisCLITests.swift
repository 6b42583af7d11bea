import Foundation
import Gate
import Reports
import TestSupport
import Testing

/// `sweep`, `merge`, `compare`, `inspect` and `regress` as users run them.
@Suite(.serialized) struct AnalysisCLITests {
  static let trace: String = {
    var text = "time,key,size\n"
    for index in 0..<6000 { text += "\(index),\((index * 7919) % 700 * (index % 3 + 1)),\(100 + (index * 31) % 900)\n" }
    return Paths.temporaryFile("analysis.csv", text: text)
  }()

  static func withoutTiming(_ path: String) throws -> String {
    let table = try ReportTable(contentsOf: path)
    let kept = table.header.indices.filter { !RegressionCheck.timingColumns.contains(table.header[$0]) }
    return ReportTable(
      path: path, header: kept.map { table.header[$0] }, rows: table.rows.map { row in kept.map { row[$0] } }
    )
    .render()
  }

  @Test func shardedSweepMergesIntoTheUnshardedReport() throws {
    let directory = Paths.temporaryDirectory("sweep")
    let common = ["sweep", "--trace", Self.trace, "--policies", "lru,sieve,s3fifo,random", "--sizes", "log:0.01:0.6:5"]
    let whole = directory.appendingPathComponent("whole.csv").path
    let outcome = try CLI.run(common + ["--output", whole])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("miss ratio") && outcome.stdout.contains("random"))
    #expect(outcome.stderr.isEmpty, "no progress bar when stderr is not a terminal")
    var shards: [String] = []
    for index in 0..<3 {
      let path = directory.appendingPathComponent("shard\(index).csv").path
      #expect(try CLI.run(common + ["--shard", "\(index)/3", "--output", path, "--quiet"]).status == 0)
      shards.append(path)
    }
    let merged = directory.appendingPathComponent("merged.csv").path
    let merge = try CLI.run(["merge"] + shards.reversed() + ["--output", merged])
    #expect(merge.status == 0, "\(merge.stderr)")
    #expect(try Self.withoutTiming(merged) == Self.withoutTiming(whole))
    let missing = try CLI.run(["merge", shards[0], shards[2], "--output", merged])
    #expect(missing.status == 1 && missing.stderr.contains("a shard is missing"))
    let bad = try CLI.run(common + ["--shard", "3/3"])
    #expect(bad.status == 64 && bad.stderr.contains("0 <= i < N"))
  }

  /// `--shard auto` as the shipped Slurm script and Kubernetes manifest run it: each task sees
  /// exactly its scheduler's variables, and the merged report equals the unsharded one.
  @Test(arguments: ["slurm", "kubernetes"])
  func schedulerArraysMergeIntoTheUnshardedReport(scheduler: String) throws {
    let directory = Paths.temporaryDirectory("array")
    let common = ["sweep", "--trace", Self.trace, "--policies", "lru,sieve,s3fifo", "--sizes", "log:0.01:0.6:4"]
    let whole = directory.appendingPathComponent("whole.csv").path
    #expect(try CLI.run(common + ["--output", whole, "--quiet"]).status == 0)
    var parts: [String] = []
    for task in 1...4 {
      let path = directory.appendingPathComponent("shard-\(task).csv").path
      let outcome =
        scheduler == "slurm"
        ? try CLI.run(
          common + ["--shard", "auto", "--output", path, "--quiet"],
          environment: [
            "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4",
            "SLURM_ARRAY_TASK_COUNT": "4",
          ])
        : try CLI.run(
          common + ["--shard", "auto", "--shards", "4", "--output", path, "--quiet"],
          environment: ["JOB_COMPLETION_INDEX": "\(task - 1)"])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      parts.append(path)
    }
    let merged = directory.appendingPathComponent("merged.csv").path
    #expect(try CLI.run(["merge"] + parts + ["--output", merged]).status == 0)
    #expect(try Self.withoutTiming(merged) == Self.withoutTiming(whole))
    let unassigned = try CLI.run(common + ["--shard", "auto"])
    #expect(unassigned.status == 64 && unassigned.stderr.contains("SLURM_ARRAY_TASK_ID"))
  }

  @Test func compareReportsAndConfigurations() throws {
    let directory = Paths.temporaryDirectory("compare")
    let a = directory.appendingPathComponent("a.csv").path
    let b = directory.appendingPathComponent("b.csv").path
    for (policy, path) in [("lru", a), ("random", b)] {
      let run = try CLI.run([
        "run", "--trace", Self.trace, "--policies", policy, "--sizes", "0.2", "--repeat", "4", "--output", path,
        "--quiet",
      ])
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(try ReportTable(contentsOf: b).rows.map { $0[10] } == ["0", "1", "2", "3"], "seeds 0…3")
    let table = directory.appendingPathComponent("cmp.csv").path
    let files = try CLI.run(["compare", a, b, "--comparison", table])
    #expect(files.status == 0, "\(files.stderr)")
    #expect(files.stdout.contains("lru @ 0.2 → random @ 0.2") && files.stdout.contains("welch"))
    let csv = try ReportTable(contentsOf: table)
    #expect(csv.rows.count == 1 && csv.value(csv.rows[0], "samples") == "repeats")
    #expect(csv.value(csv.rows[0], "test") == "welch" && csv.value(csv.rows[0], "p_holm") == "")
    let series = directory.appendingPathComponent("windows.csv").path
    let windows = try CLI.run([
      "compare", "--trace", Self.trace, "--policies", "lru,sieve,fifo", "--sizes", "0.2", "--window", "1000r",
      "--window-series", series, "--baseline", "sieve",
    ])
    #expect(windows.status == 0, "\(windows.stderr)")
    #expect(windows.stdout.contains("sieve @ 0.2 → lru @ 0.2") && windows.stdout.contains("paired-t"))
    #expect(windows.stdout.contains("6 windows") && windows.stdout.contains("p Holm"))
    let fromSeries = try CLI.run(["compare", series, "--baseline", "sieve"])
    #expect(fromSeries.status == 0, "\(fromSeries.stderr)")
    #expect(
      fromSeries.stdout == windows.stdout.replacingOccurrences(of: "wrote \(series)\n", with: ""), "the same pairs")
    let exact = try CLI.run(["compare", "--trace", Self.trace, "--policies", "lru,sieve", "--sizes", "0.2,0.4"])
    #expect(exact.status == 0, "\(exact.stderr)")
    #expect(exact.stdout.contains("lru @ 0.4 → sieve @ 0.4") && exact.stdout.contains("deterministic — no test needed"))
    let unknown = try CLI.run([
      "compare", "--trace", Self.trace, "--policies", "lru,sieve", "--sizes", "0.2", "--baseline", "arc",
    ])
    #expect(unknown.status == 64 && unknown.stderr.contains("names no configuration"))
    let lonely = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru", "--sizes", "0.2", "--window-series", series,
    ])
    #expect(lonely.status == 64 && lonely.stderr.contains("--window-series needs --window"))
  }

  @Test func inspectPrintsAndWritesTheFigures() throws {
    let output = Paths.temporaryDirectory("inspect").appendingPathComponent("i.csv").path
    let outcome = try CLI.run(["inspect", Self.trace, "--output", output])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    for text in ["requests", "6000", "distinct objects", "one-hit wonders", "Zipf alpha", "reuse distance"] {
      #expect(outcome.stdout.contains(text), "\(text)")
    }
    let csv = try ReportTable(contentsOf: output)
    #expect(csv.rows.contains(["summary", "requests", "", "", "6000"]))
    let bad = Paths.temporaryFile("bad-inspect.csv", text: "time,key,size\n1,2,x\n")
    let failure = try CLI.run(["inspect", bad])
    #expect(failure.status == 1 && failure.stderr.contains("\(bad):2:"))
  }

  /// The gate passes on an untouched baseline, fails on a tampered one, and --update refreshes it.
  @Test func regressPassesOnTheBaselineAndFailsWhenTampered() throws {
    let directory = Paths.temporaryDirectory("baseline")
    let baseline = directory.appendingPathComponent("policies.csv").path
    let made = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru,s3fifo,random", "--sizes", "0.1,20KiB", "--repeat", "3",
      "--serial", "--output", baseline, "--quiet",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let pass = try CLI.run(["regress", "--baseline", directory.path])
    #expect(pass.status == 0, "\(pass.stdout) \(pass.stderr)")
    #expect(pass.stdout.contains("every deterministic column matches") && pass.stdout.contains("no regression"))

    var text = try String(contentsOfFile: baseline, encoding: .utf8)
    let table = try ReportTable(path: baseline, text: text)
    let column = try table.column("hit_ratio")
    var tampered = table
    tampered.rows[2][column] = "0.999999"
    text = tampered.render()
    try text.write(toFile: baseline, atomically: true, encoding: .utf8)
    let fail = try CLI.run(["regress", "--baseline", directory.path])
    #expect(fail.status == 1)
    #expect(fail.stdout.contains("hit_ratio 0.999999 ->"), "\(fail.stdout)")

    #expect(try CLI.run(["regress", "--baseline", directory.path, "--update"]).status == 0)
    #expect(try CLI.run(["regress", "--baseline", directory.path]).status == 0)
    let empty = Paths.temporaryDirectory("empty-baseline").path
    let none = try CLI.run(["regress", "--baseline", empty])
    #expect(none.status == 1 && none.stderr.contains("no baseline reports"))
  }
}
