import Foundation
import Reports
import TestSupport
import Testing

/// Runs the built `cachelab` binary: exit codes, messages and files, as users see them.
enum CLI {
  static let binary = CLIBinary.path

  typealias Outcome = ChildProcess.Outcome

  /// Runs `cachelab arguments`, with `input` on standard input and `environment` added.
  static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
    try ChildProcess.run(binary, arguments, input: input, environment: environment)
  }
}

@Suite(.serialized) struct CLITests {
  static let trace: String = {
    var text = "time,key,size\n"
    for index in 0..<3000 { text += "\(index),\((index * 7919) % 400),\(100 + (index * 31) % 900)\n" }
    return Paths.temporaryFile("cli.csv", text: text)
  }()

  @Test func policiesListsTheRegistryWithParameters() throws {
    let outcome = try CLI.run(["policies"])
    #expect(outcome.status == 0)
    for name in ["fifo", "lru", "clock", "sieve"] {
      #expect(outcome.stdout.contains("\n\(name) ") || outcome.stdout.hasPrefix("\(name) "), "\(name) missing")
    }
    #expect(outcome.stdout.contains("bits=1"))
    let details = try CLI.run(["policies", "--details"])
    #expect(details.stdout.contains("memory per object"))
    let formats = try CLI.run(["formats"])
    #expect(formats.stdout.contains("oracle-general") && formats.stdout.contains("key-col=0"))
  }

  @Test func fixedParameterSpellingsWork() throws {
    let output = Paths.temporaryDirectory().appendingPathComponent("p.csv").path
    let outcome = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "s3fifo:small=0.1,ghost=0.9,slru:segments=5", "--sizes", "0.5",
      "--output", output, "--quiet",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(rows.count == 3)
    #expect(rows[1].contains(",s3fifo,small=0.1;ghost=0.9;threshold=2,"))
    #expect(rows[2].contains(",slru,segments=5,"))
    let unknown = try CLI.run(["run", "--trace", Self.trace, "--policies", "s3fifo:tiny=0.1", "--sizes", "1"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("s3fifo has no parameter 'tiny' (known: small, ghost, threshold)"))
  }

  @Test func runPrintsATableAndWritesTheCSV() throws {
    let output = Paths.temporaryDirectory().appendingPathComponent("report.csv").path
    let outcome = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru,fifo,clock,sieve", "--sizes", "0.1,16KiB", "--output", output,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("3000 requests, 400 objects"))
    #expect(outcome.stdout.contains("hit ratio"))
    let csv = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(csv.count == 1 + 8)
    #expect(csv[0].hasPrefix("trace,format,policy,params,capacity,"))
    #expect(csv[1].contains(",lru,"))
  }

  @Test func theSameRunGivesTheSameNumbers() throws {
    let directory = Paths.temporaryDirectory()
    var reports: [String] = []
    for name in ["a.csv", "b.csv"] {
      let path = directory.appendingPathComponent(name).path
      let outcome = try CLI.run([
        "run", "--trace", Self.trace, "--policies", "sieve,lru", "--sizes", "20KiB,0.3", "--output", path, "--quiet",
      ])
      #expect(outcome.status == 0)
      #expect(outcome.stdout.isEmpty)
      // Drop the timing columns, which are the only ones allowed to differ.
      let timing = Set(ReportColumn.standard.filter(\.isTiming).map(\.name))
      let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false)
      }
      let kept = rows[0].indices.filter { !timing.contains(String(rows[0][$0])) }
      #expect(kept.count == rows[0].count - timing.count)
      reports.append(rows.map { row in kept.map { String(row[$0]) }.joined(separator: ",") }.joined(separator: "\n"))
    }
    #expect(reports[0] == reports[1])
  }

  @Test(arguments: [
    (
      ["run", "--trace", "x.csv", "--policies", "lru,nope", "--sizes", "1"],
      "unknown policy 'nope'; known policies: fifo, lru"
    ),
    (
      ["run", "--trace", "x.csv", "--policies", "clock:size=2", "--sizes", "1"],
      "clock has no parameter 'size' (known: bits)"
    ),
    (
      ["run", "--trace", "x.csv", "--format", "parquet", "--policies", "lru", "--sizes", "1"],
      "known formats: oracle-general"
    ),
    (["run", "--trace", "x.csv", "--policies", "lru", "--sizes", "12XB"], "cache size '12XB'"),
    (
      [
        "run", "--trace", "x.log", "--format", "access-log:log-format='$msec ${request'", "--policies", "lru",
        "--sizes", "1",
      ],
      "'${' without a closing '}'"
    ),
    (
      ["run", "--trace", "x.csv", "--policies", "lru", "--sizes", "2.5"],
      "fraction of the working set must be in (0, 1]"
    ),
    (
      ["run", "--trace", "x.csv", "--policies", "lru", "--sizes", "1KiB", "--ignore-size"],
      "--ignore-size counts objects"
    ),
    (["run", "--trace", "x.csv", "--policies", "lru", "--sizes", "1", "--warmup", "2"], "warm-up '2'"),
    (
      [
        "run", "--trace", Paths.packageRoot.appendingPathComponent("Package.swift").path, "--policies", "lru",
        "--sizes", "1",
      ],
      "cannot tell the format"
    ),
    (["run", "--policies", "lru", "--sizes", "1"], "Missing expected argument '--trace"),
    (["run", "--trace", "x.csv", "--policies", "lru", "--sizes", "1", "--ttl", "0s"], "must be 'trace'"),
    (["run", "--trace", "x.csv", "--preset", "nuke", "--ttl", "1h"], "--ttl applies to --policies caches"),
    (["gen", "zipf", "--objects", "0", "--output", "x.bin"], "--objects"),
    (["gen", "zipf", "--sizes", "gamma", "--output", "x.bin"], "unknown size distribution"),
  ])
  func badArgumentsExit64WithUsage(arguments: [String], message: String) throws {
    let outcome = try CLI.run(arguments)
    #expect(outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("Usage:"))
  }

  @Test func unreadableOrMalformedTracesExit1WithTheirLocation() throws {
    let missing = try CLI.run(["run", "--trace", "/nonexistent/t.csv", "--policies", "lru", "--sizes", "10"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/nonexistent/t.csv: cannot open: No such file or directory"))
    let bad = Paths.temporaryFile("bad.csv", text: "time,key,size\n1,2,3\n2,3,abc\n")
    let malformed = try CLI.run(["run", "--trace", bad, "--policies", "lru", "--sizes", "10"])
    #expect(malformed.status == 1)
    #expect(malformed.stderr.contains("\(bad):3: size 'abc' in column 3 is not a non-negative integer"))
    var truncated = [UInt8](repeating: 0, count: 24 * 3 + 10)
    truncated[8] = 1
    let cut = Paths.temporaryFile("cut.oracleGeneral.bin", bytes: truncated)
    let short = try CLI.run(["run", "--trace", cut, "--policies", "lru", "--sizes", "10"])
    #expect(short.status == 1)
    #expect(short.stderr.contains("\(cut):4: truncated record"))
  }

  @Test func anUnwritableReportFailsBeforeReplaying() throws {
    let blocker = Paths.temporaryFile("blocker", text: "")
    let outcome = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru", "--sizes", "10", "--output", blocker + "/sub/r.csv",
    ])
    // A usage error before the replay (fault-cases-3 D17): the folder in the way is named.
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("\(blocker) is a file, not a folder"), "\(outcome.stderr)")
    #expect(!outcome.stdout.contains("hit ratio"))
  }

  @Test func genZipfWritesAReproducibleTraceThatRuns() throws {
    let directory = Paths.temporaryDirectory()
    let first = directory.appendingPathComponent("z1.oracleGeneral.bin").path
    let second = directory.appendingPathComponent("z2.oracleGeneral.bin").path
    for path in [first, second] {
      let outcome = try CLI.run([
        "gen", "zipf", "--objects", "1000", "--requests", "20000", "--alpha", "0.9", "--seed", "3", "--output", path,
      ])
      #expect(outcome.status == 0, "\(outcome.stderr)")
    }
    #expect(FileManager.default.contentsEqual(atPath: first, andPath: second))
    let run = try CLI.run(["run", "--trace", first, "--policies", "lru,sieve", "--sizes", "0.1", "--verify"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("20000 requests"))
    let csv = directory.appendingPathComponent("z.csv").path
    #expect(try CLI.run(["gen", "zipf", "--objects", "10", "--requests", "100", "--output", csv]).status == 0)
    #expect(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix("time,key,size\n"))
  }

  /// `--ttl` on CacheLib's TTL samples: their TTLs (120 s and more) outlive the 9 s they span,
  /// so `--ttl trace` counts what a run without it counts; a 1 s default expires objects.
  @Test func ttlExpiresObjectsInPolicyRuns() throws {
    let trace = "cachelib/kv_traces_1.csv"
    guard Paths.sharedTraceAvailable(trace) else {
      print("skipping: ../shared/traces/\(trace) is missing")
      return
    }
    func rows(_ extra: [String]) throws -> [[String: String]] {
      let outcome = try CLI.run(
        [
          "run", "--trace", Paths.sharedTrace(trace), "--policies", "lru,s3fifo", "--sizes", "1000", "--ignore-size",
          "--output", "-",
        ] + extra)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let lines = outcome.stdout.split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false)
      }
      guard let header = lines.first else { return [] }
      return lines.dropFirst().map {
        Dictionary(uniqueKeysWithValues: zip(header.map(String.init), $0.map(String.init)))
      }
    }
    let plain = try rows([])
    let traceTTL = try rows(["--ttl", "trace"])
    let oneSecond = try rows(["--ttl", "1s"])
    #expect(plain.count == 2 && traceTTL.count == 2 && oneSecond.count == 2)
    for (index, row) in plain.enumerated() {
      #expect(row["expired"] == "" && row["ttl"] == "")
      #expect(traceTTL[index]["misses"] == row["misses"] && traceTTL[index]["expired"] == "0")
      #expect(traceTTL[index]["ttl"] == "trace" && oneSecond[index]["ttl"] == "1s")
      let expired = Int(oneSecond[index]["expired"] ?? "") ?? 0
      let extra = (Int(oneSecond[index]["misses"] ?? "") ?? 0) - (Int(row["misses"] ?? "") ?? 0)
      #expect(expired > 0 && extra > 0 && extra <= expired, "\(oneSecond[index])")
    }
    let untimed = Paths.temporaryFile("untimed.txt", text: "1\n2\n1\n")
    let refused = try CLI.run(["run", "--trace", untimed, "--policies", "lru", "--sizes", "2", "--ttl", "1h"])
    #expect(refused.status == 64 && refused.stderr.contains("no timestamps"), "\(refused.stderr)")
  }
}
