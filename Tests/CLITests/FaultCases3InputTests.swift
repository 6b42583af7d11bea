import Foundation
import Reports
import TestSupport
import Testing

/// The third round of faults (../shared/design/fault-cases-3.md) about what a run reads and
/// counts: bounded tables, standard input read once, unlike reports never combined, numbers
/// that are right or refused, consistent rules and messages. One test per defect.
@Suite(.serialized) struct FaultCases3InputTests {
  typealias Scratch = FaultCases3OutputTests.Scratch

  static func expect(
    _ arguments: [String], status: Int32, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try FaultCaseTests.expect(arguments, status: status, message, sourceLocation: sourceLocation)
  }

  /// The CSV report of a run, by column name.
  static func rows(_ arguments: [String]) throws -> [[String: String]] {
    let outcome = try CLI.run(arguments + ["--output", "-"])
    #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    let lines = outcome.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { row in
      Dictionary(uniqueKeysWithValues: zip(header.map(String.init), row.map(String.init)))
    }
  }

  /// D01: a fixed-size sample far larger than the trace reserves nothing up front.
  @Test func d01AHugeFixedSizeSampleRunsOnATinyTrace() throws {
    let z = try Scratch().zipf("t.oracleGeneral.bin", requests: 3, objects: 2)
    let outcome = try CLI.run([
      "run", "--trace", z, "--policies", "lru", "--sizes", "1MiB", "--sample", "2000000000obj", "--quiet",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
  }

  /// D03: standard input cannot feed a second pass: refused, saying why.
  @Test func d03StandardInputIsReadOnce() throws {
    let text = "time,key,size\n" + (0..<2000).map { "\($0),k\($0 % 97),100\n" }.joined()
    let file = Scratch().file("t.csv", text)
    /// Runs cachelab with `file` as standard input (no pipe to break when it refuses early).
    func fromStandardInput(_ extra: [String]) throws -> CLI.Outcome {
      try ChildProcess.run(
        CLI.binary, ["run", "--trace", "-", "--format", "csv", "--policies", "lru,random", "--sizes", "1MiB"] + extra,
        inputFile: try FileHandle(forReadingFrom: URL(fileURLWithPath: file)))
    }
    for extra in [["--repeat", "3"], ["--sample", "100obj"]] {
      let outcome = try fromStandardInput(extra)
      #expect(outcome.status == 64, "\(extra): \(outcome.stderr)")
      #expect(outcome.stderr.contains("standard input can be read only once"), "\(outcome.stderr)")
    }
    let once = try fromStandardInput([])
    #expect(once.status == 0 && once.stdout.contains("2000 requests"), "\(once.stdout)\(once.stderr)")
  }

  /// D04: engines cannot be scaled from a sample: refused, not run on the sampled keys.
  @Test func d04EnginesAreRefusedWithASample() throws {
    let z = try Scratch().zipf("z.oracleGeneral.bin")
    try Self.expect(
      ["run", "--trace", z, "--policies", "lru", "--sizes", "1MiB", "--memory", "lru:1MiB", "--sample", "0.01"],
      status: 64, "--sample applies to --policies caches")
  }

  /// D05: merge takes only shards of one sweep and names the first difference.
  @Test func d05MergeRefusesShardsOfAnotherSweep() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin")
    func shard(_ index: Int, _ name: String, _ extra: [String] = [], policies: String = "lru,fifo,sieve") throws
      -> String
    {
      let path = scratch.path + "/" + name
      let outcome = try CLI.run(
        ["sweep", "--trace", z, "--quiet", "--policies", policies, "--sizes", "0.01,0.05,0.1", "--shard", "\(index)/3"]
          + extra + ["--output", path])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      return path
    }
    let s0 = try shard(0, "s0.csv")
    let s2 = try shard(2, "s2.csv")
    let merged = scratch.path + "/m.csv"
    for (other, column) in [
      (try shard(1, "p.csv", policies: "arc,lfu,s3fifo"), "grid"),
      (try shard(1, "n.csv", ["--num-req", "100"]), "num_req"),
      (try shard(1, "o.csv", ["--ignore-size"]), "ignore_size"),
    ] {
      let outcome = try CLI.run(["merge", s0, other, s2, "--output", merged])
      #expect(outcome.status == 1, "\(column): \(outcome.stderr)")
      #expect(
        outcome.stderr.contains("\(column) '") && outcome.stderr.contains("not shards of one sweep"),
        "\(outcome.stderr)")
      #expect(!FileManager.default.fileExists(atPath: merged))
    }
    let good = try CLI.run(["merge", s0, try shard(1, "s1.csv"), s2, "--output", merged])
    #expect(good.status == 0, "\(good.stderr)")
  }

  /// D06: uniform draws keep their range past 2^32 objects and 4 GiB sizes.
  @Test func d06UniformDrawsKeepTheirRangePast32Bits() throws {
    let scratch = Scratch()
    let keys = scratch.path + "/u.csv"
    let uniform = try CLI.run(["gen", "uniform", "objects=5000000000", "requests=1000", "--output", keys, "--quiet"])
    #expect(uniform.status == 0, "\(uniform.stderr)")
    #expect(Set(try Self.column(keys, 1)).count > 990, "distinct keys")
    let sizes = scratch.path + "/s.csv"
    let sized = try CLI.run([
      "gen", "zipf", "--requests", "1000", "--objects", "100", "--sizes", "uniform:min=1KiB,max=5GiB", "--output",
      sizes,
      "--quiet",
    ])
    #expect(sized.status == 0, "\(sized.stderr)")
    let drawn = try Self.column(sizes, 2).compactMap { Int64($0) }
    #expect(Set(drawn).count > 50 && drawn.contains { $0 > 1 << 32 }, "sizes: \(Set(drawn).count) distinct")
  }

  /// The values of column `index` (0-based) of a CSV trace, header left out.
  static func column(_ path: String, _ index: Int) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
      String($0.split(separator: ",", omittingEmptySubsequences: false)[index])
    }
  }

  /// D08: a latency above an hour is recorded, not dropped.
  @Test func d08LongLatenciesAreRecorded() throws {
    let slow = Scratch().file("slow.cachelab.csv", "time,key,size,latency\n1,a,100,7200\n2,b,100,7200\n3,c,100,7200\n")
    let row = try #require(try Self.rows(["run", "--trace", slow, "--memory", "lru:1MiB"]).first)
    for column in ["latency_p50", "latency_max"] {
      let value = try #require(Double(row[column] ?? ""), "\(column) = \(row[column] ?? "nil")")
      #expect(abs(value - 7.2e9) < 7.2e9 * 0.002, "\(column) = \(value) µs")
    }
  }

  /// D10: time running backwards is an input error where results depend on time.
  @Test func d10BackwardsTimeIsRefusedWhereTimeMatters() throws {
    var text = "time,key,size,cache_control,date\n"
    for index in 0..<300 { text += "\(30000 - index * 10),k\(index % 41),1000,max-age=60,\(30000 - index * 10)\n" }
    let trace = Scratch().file("dec.cachelab.csv", text)
    for extra in [
      ["--memory", "lru:1MiB", "--expiry", "http"], ["--policies", "lru", "--sizes", "1MiB", "--warmup", "100s"],
    ] {
      try Self.expect(["run", "--trace", trace] + extra, status: 1, "dec.cachelab.csv: request 2 is at time 29990")
    }
    // Where time plays no part, the order does not matter.
    let plain = try CLI.run(["run", "--trace", trace, "--policies", "lru", "--sizes", "1MiB"])
    #expect(plain.status == 0, "\(plain.stderr)")
  }

  /// D12: a baseline without rows fails, in the JUnit file too.
  @Test func d12AnEmptyBaselineFailsInJUnitToo() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 5000, objects: 500)
    let baseline = scratch.path + "/bl"
    let create = try CLI.run([
      "regress", "--create", baseline, "--trace", z, "--policies", "lru,sieve", "--sizes", "0.1",
    ])
    #expect(create.status == 0, "\(create.stderr)")
    let header = try String(contentsOfFile: baseline + "/baseline.csv", encoding: .utf8).split(separator: "\n")[0]
    try (header + "\n").write(toFile: baseline + "/baseline.csv", atomically: true, encoding: .utf8)
    let junit = scratch.path + "/j.xml"
    let outcome = try CLI.run(["regress", "--baseline", baseline, "--junit", junit])
    #expect(outcome.status == 1 && outcome.stderr.contains("holds no rows"), "\(outcome.stderr)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<failure") && xml.contains("holds no rows"), "\(xml)")
  }

  /// D14: a CacheLib row cannot stand for billions of requests.
  @Test func d14HugeOpCountsAreRefused() throws {
    let one = Scratch().file("one.csv", "op_time,key,key_size,op,op_count,size,ttl\n1,a,1,GET,40000000,10,0\n")
    try Self.expect(
      ["inspect", one, "--format", "cachelib", "--quiet"], status: 1, "one.csv:2: op_count 40000000 is above")
    let fine = Scratch().file("fine.csv", "op_time,key,key_size,op,op_count,size,ttl\n1,a,1,GET,1000000,10,0\n")
    let outcome = try CLI.run(["run", "--trace", fine, "--format", "cachelib", "--policies", "lru", "--sizes", "1MiB"])
    #expect(outcome.status == 0 && outcome.stdout.contains("1000000 requests"), "\(outcome.stdout)\(outcome.stderr)")
  }

  /// D16: classic Mac (CR-only) line ends are read.
  @Test func d16CarriageReturnOnlyLinesAreRead() throws {
    let trace = Scratch().file("cr.csv", "time,key,size\r1,a,10\r2,b,20\r3,a,10\r")
    let row = try #require(try Self.rows(["run", "--trace", trace, "--policies", "lru", "--sizes", "1MiB"]).first)
    #expect(row["requests"] == "3" && row["hits"] == "1", "\(row)")
  }

  /// D18: a preset parameter of 0 that the library would not read as "no limit" is refused.
  @Test func d18ZeroPresetParametersMeanWhatTheLibraryMeansOrAreRefused() throws {
    let trace = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path
    for preset in [
      "afnetworking:memory=0", "afnetworking:url-cache-disk=0", "kingfisher:memory-ttl=0s", "nuke:memory=0",
    ] {
      try Self.expect(["run", "--trace", trace, "--preset", preset], status: 64, "above 0")
    }
    for preset in ["kingfisher:memory=0", "pincache:memory=0", "nscache-linux:cost-limit=0"] {
      let outcome = try CLI.run(["run", "--trace", trace, "--preset", preset, "--quiet"])
      #expect(outcome.status == 0, "\(preset): \(outcome.stderr)")
    }
    let help = try CLI.run(["presets"])
    #expect(help.stdout.contains("0 refused"), "the help says which zeros are refused")
  }

  /// D19: a launch that drops memory counts as a purge.
  @Test func d19ALaunchCountsAsAPurge() throws {
    let trace = Scratch().file(
      "l.cachelab.csv", "time,op,key,size,event\n1,get,a,100,\n2,get,b,100,\n3,event,,0,launch\n4,get,a,100,\n")
    let row = try #require(try Self.rows(["run", "--trace", trace, "--memory", "lru:1MiB"]).first)
    #expect(row["purges"] == "1" && row["purged_objects"] == "2", "\(row)")
  }

  /// D20: a run that counts no request says so instead of printing 0.00 %.
  @Test func d20NoCountedRequestsIsNoHitRatio() throws {
    let trace = Scratch().file("t.csv", "time,key,size\n1,a,10\n2,a,10\n3,a,10\n")
    let run = ["run", "--trace", trace, "--policies", "lru", "--sizes", "1MiB", "--warmup", "5s"]
    let row = try #require(try Self.rows(run).first)
    #expect(row["requests"] == "0" && row["hit_ratio"] == "" && row["miss_ratio"] == "", "\(row)")
    let table = try CLI.run(run)
    #expect(table.status == 0 && table.stdout.contains("no requests counted"), "\(table.stdout)")
    #expect(!table.stdout.contains("0.00 %"), "\(table.stdout)")
  }

  /// D21: each message names the real problem.
  @Test func d21MessagesNameTheRealProblem() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 5000, objects: 500)
    let run = ["run", "--trace", z, "--policies", "lru", "--sizes", "0.1"]
    try Self.expect(
      [
        "run", "--trace", scratch.file("big.csv", "time,key,size\n1e300,a,10\n"), "--policies", "lru", "--sizes",
        "1MiB",
      ],
      status: 1, "big.csv:2: time '1e300' in column 1 is above the largest time")
    try Self.expect(run + ["--sample", "1e-9"], status: 1, "the sample at rate")
    for (option, value, message) in [
      ("--repeat", "-1", "--repeat must be in 1...10000"), ("--num-req", "-1", "--num-req must be positive"),
      ("--sample-floor", "-1", "--sample-floor must be 0 or more"), ("--seed", "-1", "'-1' is invalid for '--seed"),
    ] {
      try Self.expect(run + [option, value], status: 64, message)
    }
    try Self.expect(
      ["gen", "zipf", "--rate", "-1", "--output", scratch.path + "/g.bin"], status: 64, "--rate must be positive")
    try Self.expect(
      [
        "run", "--trace", "gen:uniform:requests=100,sizes=uniform:min=1KiB;max=8GiB", "--policies", "lru", "--sizes",
        "0.1",
      ],
      status: 1, "gen:uniform:requests=100")
    let report = scratch.path + "/r.csv"
    #expect(try CLI.run(run + ["--quiet", "--output", report]).status == 0)
    let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
    let headerOnly = scratch.file("hdr.csv", lines[0] + "\n")
    try Self.expect(["compare", headerOnly], status: 1, "holds no configurations")
    let column = lines[0].split(separator: ",").firstIndex(of: "hit_ratio")!
    var cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    cells[column] = "abc"
    let bad = scratch.file("bad.csv", lines[0] + "\n" + cells.joined(separator: ",") + "\n" + lines[1] + "\n")
    try Self.expect(["compare", bad], status: 1, "'hit_ratio' is 'abc'")
    func study(_ name: String, _ key: String) -> String {
      scratch.file(
        name, "[[trace]]\npath = \"z.oracleGeneral.bin\"\n[run]\npolicies = [\"lru\"]\nsizes = [\"0.1\"]\n\(key)\n")
    }
    try Self.expect(["run", "--config", study("s1.toml", "repeat = -1")], status: 64, "s1.toml: --repeat must be in")
    try Self.expect(
      ["run", "--config", study("s2.toml", "frobnicate = 1")], status: 64,
      "s2.toml: [run] key 'frobnicate' is not an option")
    try Self.expect(
      ["run", "--config", study("s3.toml", "warmup = [[\"0.1\"]]")], status: 64,
      "s3.toml: [run] key 'warmup': each item of the array must be a string or number")
    try Self.expect(
      ["run", "--config", study("s4.toml", "config = \"x.toml\"")], status: 64, "cannot name another study file")
    try Self.expect(["run", "--config", study("s5.toml", "\"output=x.csv\" = true")], status: 64, "key 'output=x.csv'")
    let zst = scratch.path + "/zz.oracleGeneral.bin.zst"
    #expect(try CLI.run(["convert", z, zst, "--quiet"]).status == 0)
    let wrong = scratch.path + "/wrong.csv.zst"
    try FileManager.default.copyItem(atPath: zst, toPath: wrong)
    try Self.expect(
      ["run", "--trace", wrong, "--policies", "lru", "--sizes", "1MiB"], status: 1, "this is binary data")
  }

  /// D21 (also): a truncated compressed trace names the record where the data ends.
  @Test func d21ATruncatedCompressedTraceNamesWhereItEnds() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 80000, objects: 8000)
    let zst = scratch.path + "/z.oracleGeneral.bin.zst"
    #expect(try CLI.run(["convert", z, zst, "--quiet"]).status == 0)
    let data = try Data(contentsOf: URL(fileURLWithPath: zst))
    let half = scratch.path + "/half.oracleGeneral.bin.zst"
    try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: half))
    let outcome = try CLI.run(["run", "--trace", half, "--policies", "lru", "--sizes", "1MiB"])
    #expect(outcome.status == 1 && outcome.stderr.contains("truncated .zst file"), "\(outcome.stderr)")
    let after = outcome.stderr.components(separatedBy: "half.oracleGeneral.bin.zst:").dropFirst().first ?? ""
    let record = Int(after.prefix { $0.isNumber }) ?? 0
    #expect(record > 10000, "\(outcome.stderr)")
  }

  /// D22: compare pairs report files only when their setting matches; a mismatch is exit 1.
  @Test func d22CompareChecksWhatItPairs() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 5000, objects: 500, seed: 1)
    let y = try scratch.zipf("y.oracleGeneral.bin", requests: 5000, objects: 5000, seed: 9)
    func report(_ name: String, _ arguments: [String]) throws -> String {
      let path = scratch.path + "/" + name
      #expect(try CLI.run(["run", "--quiet", "--output", path] + arguments).status == 0)
      return path
    }
    let a = try report("a.csv", ["--trace", z, "--policies", "lru", "--sizes", "0.1"])
    let c = try report("c.csv", ["--trace", y, "--policies", "fifo", "--sizes", "500", "--ignore-size"])
    try Self.expect(["compare", a, c], status: 1, "differs from")
    let b = try report("b.csv", ["--trace", z, "--policies", "sieve", "--sizes", "0.1"])
    let paired = try CLI.run(["compare", a, b])
    #expect(paired.status == 0, "one configuration each, one setting: \(paired.stderr)")
    let a2 = try report("a2.csv", ["--trace", z, "--policies", "lru,sieve", "--sizes", "0.1"])
    let b2 = try report("b2.csv", ["--trace", z, "--policies", "lru,sieve", "--sizes", "0.2"])
    try Self.expect(["compare", a2, b2], status: 1, "no configuration matches")
  }

  /// D23: one rule for duplicates, fractions of a byte, repeated options, zero and status.
  @Test func d23ConsistentRules() throws {
    let scratch = Scratch()
    let z = try scratch.zipf("z.oracleGeneral.bin", requests: 5000, objects: 500)
    try Self.expect(["run", "--trace", z, "--policies", "lru", "--sizes", "1KiB,1024"], status: 64, "is given twice")
    try Self.expect(["run", "--trace", z, "--policies", "lru", "--sizes", "1.5B"], status: 64, "1.5B")
    try Self.expect(
      ["run", "--trace", z, "--memory", "lru:1MiB", "--memory", "lru:2MiB"], status: 64, "--memory is given twice")
    let msr = scratch.file("msr.csv", "128166372003061629,hm,0,Read,0,4096,100\n")
    try Self.expect(
      ["run", "--trace", msr, "--format", "msr:block-size=0", "--policies", "lru", "--sizes", "1MiB"], status: 64,
      "block-size")
    let status = scratch.file("s.cachelab.csv", "time,key,size,status\n1,a,10,999\n")
    try Self.expect(["run", "--trace", status, "--memory", "lru:1MiB"], status: 1, "status 999 is not an HTTP status")
  }

  /// D24: C1 control characters from a trace are escaped in messages.
  @Test func d24C1ControlCharactersAreEscaped() throws {
    let trace = Scratch().file("c1.csv", "time,key,size\n1,a,\u{9B}31m\n")
    let outcome = try CLI.run(["run", "--trace", trace, "--policies", "lru", "--sizes", "1MiB"])
    #expect(outcome.status == 1)
    #expect(!outcome.stderr.unicodeScalars.contains("\u{9B}") && outcome.stderr.contains("\\x9B"), "\(outcome.stderr)")
  }

  /// D25: sampled caches are labelled with the size they were configured with.
  @Test func d25SampledCachesKeepTheirConfiguredLabels() throws {
    let z = try Scratch().zipf("z.oracleGeneral.bin", requests: 80000, objects: 10000)
    let outcome = try CLI.run([
      "run", "--trace", z, "--policies", "lru", "--sizes", "1MiB,10MiB,100MiB", "--sample", "0.01",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let labels = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("lru ") }.map {
      $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().prefix(2).joined(separator: " ")
    }
    #expect(labels == ["1 MiB", "10 MiB", "100 MiB"], "\(outcome.stdout)")
    #expect(outcome.stdout.contains("in the sample (rate 0.01"), "\(outcome.stdout)")
  }

  /// D26: an ARC block range that would wrap past 2^64 is refused, as MSR's are.
  @Test func d26WrappingBlockNumbersAreRefused() throws {
    let trace = Scratch().file("a.lis", "18446744073709551615 10 0 1\n")
    try Self.expect(
      ["run", "--trace", trace, "--policies", "lru", "--sizes", "10", "--ignore-size"], status: 1,
      "a.lis:1: blocks 18446744073709551615 + 10 run past the last block number")
  }
}
