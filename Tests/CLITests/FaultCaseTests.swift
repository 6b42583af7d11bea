import Foundation
import TestSupport
import Testing

/// Every reproducer of ../shared/design/fault-cases.md ends cleanly: `path:line: message`
/// (exit 1) or usage (exit 64), never a signal, a hang, a wrong number or a write outside
/// the target.
@Suite(.serialized) struct FaultCaseTests {
  static let folder = Paths.temporaryDirectory("faults")

  static func file(_ name: String, _ text: String) -> String {
    let path = folder.appendingPathComponent(name).path
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  static let hugeSize = file("e.cachelab.csv", "time,key,size\n1,a,9223372036854775807\n2,b,1\n")
  static let oracle = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  /// Runs the CLI and checks it ended with `status` (no signal) and said `message`.
  static func expect(
    _ arguments: [String], status: Int32, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let outcome = try CLI.run(arguments)
    #expect(outcome.status == status, "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
    #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
  }

  @Test func overflowingSizesAndTimesAreInputErrors() throws {
    let c1 = Self.file("c1.csv", "op_time,key,key_size,op,op_count,size\n1,a,9223372036854775807,GET,1,1\n")
    try Self.expect(
      ["run", "--trace", c1, "--format", "cachelib", "--policies", "lru", "--sizes", "1MiB"], status: 1,
      "c1.csv:2: key_size + size is above the largest object CacheLab accepts")
    let c2 = Self.file("c2.csv", "op_time,key,key_size,op,op_count,size,ttl\n1,a,1,GET,1,1,9223372036854775807\n")
    try Self.expect(
      ["run", "--trace", c2, "--format", "cachelib", "--policies", "lru", "--sizes", "1MiB"], status: 1,
      "c2.csv:2: ttl 9223372036854775807 s is longer than CacheLab's longest duration")
    let c3 = Self.file("c3.csv", "op_time,key,key_size,op,op_count,size\n1,a,1,GET,99999999999,1\n")
    try Self.expect(
      ["run", "--trace", c3, "--format", "cachelib", "--policies", "lru", "--sizes", "1MiB"], status: 1,
      "c3.csv:2: op_count 99999999999 is above 1000000 repetitions")
    for preset in ["sdwebimage", "kingfisher", "urlcache-linux"] {
      try Self.expect(
        ["run", "--trace", Self.hugeSize, "--preset", preset], status: 1,
        "e.cachelab.csv:2: size 9223372036854775807 is above the largest object CacheLab accepts, 2^48 bytes")
    }
    for sizes in ["1MiB", "0.5"] {
      try Self.expect(
        ["run", "--trace", Self.hugeSize, "--policies", "lru", "--sizes", sizes], status: 1, "e.cachelab.csv:2: size")
    }
    let total = Self.file(
      "t.cachelab.csv", "time,key,size\n" + (1...20_000).map { "\($0),\($0),\(1 << 48)\n" }.joined())
    try Self.expect(
      ["run", "--trace", total, "--policies", "lru", "--sizes", "1MiB"], status: 1,
      "t.cachelab.csv:16386: the trace's request sizes add up to more than 2^62 bytes")
  }

  @Test func hugeDurationsAreUsageErrors() throws {
    let small = Self.file("s.cachelab.csv", "time,key,size\n1,a,5\n2,b,1\n")
    let cases: [([String], String)] = [
      (["--policies", "lru", "--sizes", "1MiB", "--warmup", "9999999999999s"], "warm-up '9999999999999s'"),
      (["--policies", "lru", "--sizes", "1MiB", "--window", "9999999999999s"], "window '9999999999999s'"),
      (["--memory", "lru:1MiB", "--expiry", "ttl:9999999999999s"], "expiry 'ttl:9999999999999s'"),
      (["--preset", "kingfisher:memory-ttl=9999999999999s"], "memory-ttl=9999999999999s is invalid"),
      (["--preset", "sdwebimage:max-age=9999999999999s"], "max-age=9999999999999s is invalid"),
      (["--preset", "nuke:sweep-interval=9999999999999s"], "sweep-interval=9999999999999s is invalid"),
      (["--preset", "kingfisher:disk-ttl=1e300d"], "disk-ttl=1e300d is invalid"),
    ]
    for (options, message) in cases {
      try Self.expect(["run", "--trace", small] + options, status: 64, message)
    }
    try Self.expect(
      [
        "gen", "zipf", "--requests", "10", "--objects", "10", "--rate", "1e-300", "--output",
        Self.folder.path + "/z.csv",
      ],
      status: 64, "the most is 10 years")
    try Self.expect(
      ["gen", "http", "--requests", "1", "--rate", "1e-9", "--output", Self.folder.path + "/g.cachelab.csv"],
      status: 64, "the most is 10 years")
  }

  @Test func fifosAndDevicesAreRefusedNotWaitedOn() throws {
    let fifo = Self.folder.appendingPathComponent("f.trace").path
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    try Self.expect(
      ["run", "--trace", fifo, "--format", "txt", "--ignore-size", "--policies", "lru", "--sizes", "10"], status: 1,
      "f.trace: is a FIFO or pipe")
    try Self.expect(
      ["run", "--trace", "/dev/zero", "--format", "vscsi", "--policies", "lru", "--sizes", "1MiB"], status: 1,
      "/dev/zero: is a device")
  }

  @Test func storeSkipsFIFOsAndLinksAndNeverFollowsThem() throws {
    let root = Paths.temporaryDirectory("fault-store")
    let trace = Self.file("h.cachelab.csv", "time,key,size\n" + (1...200).map { "\($0),\($0 % 50),100\n" }.joined())
    let first = try CLI.run(["run", "--trace", trace, "--preset", "sdwebimage", "--disk-backend", "file:\(root.path)"])
    #expect(first.status == 0)
    let store = try #require(try FileManager.default.contentsOfDirectory(atPath: root.path).first)
    let folder = root.appendingPathComponent(store).path
    #expect(mkfifo(folder + "/cccccccccccccccccccccccccccccccc", 0o600) == 0)
    let outside = Self.file("outside.txt", "keep me")
    #expect(symlink(outside, folder + "/dddddddddddddddddddddddddddddddd") == 0)
    let second = try CLI.run(["run", "--trace", trace, "--preset", "sdwebimage", "--disk-backend", "file:\(root.path)"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stderr.contains("skipping 2 entries"))
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep me")
    // A store folder that is itself a link (planted where the engine's folder goes) is refused.
    let planted = Paths.temporaryDirectory("fault-link")
    let elsewhere = Paths.temporaryDirectory("fault-elsewhere")
    #expect(symlink(elsewhere.path, planted.appendingPathComponent(store).path) == 0)
    let refused = try CLI.run([
      "run", "--trace", trace, "--preset", "sdwebimage", "--disk-backend", "file:\(planted.path)",
    ])
    #expect(refused.status == 1 && refused.stderr.contains("symbolic link"), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "nothing written through it")
  }

  @Test func exitCodesAndMessages() throws {
    let empty = Self.file("empty.bin", "")
    try Self.expect(
      ["run", "--trace", empty, "--format", "int64-be", "--policies", "lru", "--sizes", "0.1"], status: 1,
      "empty.bin: holds no requests")
    let report = Self.folder.appendingPathComponent("a.csv").path
    #expect(
      try CLI.run([
        "run", "--trace", Self.oracle, "--policies", "lru,sieve", "--sizes", "0.1", "--output", report, "--quiet",
      ]).status == 0)
    try Self.expect(
      ["compare", report, report, "--metric", "nosuch"], status: 64,
      "The value 'nosuch' is invalid for '--metric <column>'")
    try Self.expect(
      ["run", "--trace", Self.oracle, "--policies", "lru,lru", "--sizes", "1MiB"], status: 64, "'lru' is given twice")
    try Self.expect(
      ["run", "--trace", Self.oracle, "--policies", "lru", "--sizes", "-1"], status: 64, "must be positive")
    let escape = Self.file("x.cachelab.csv", "tim\u{1B}[31me,key,size\n1,a,5\n")
    let escaped = try CLI.run(["run", "--trace", escape, "--policies", "lru", "--sizes", "1MiB"])
    #expect(escaped.status == 1 && escaped.stderr.contains("tim\\x1B[31me") && !escaped.stderr.contains("\u{1B}"))
    let big = Self.file("big.cachelab.csv", "time,key,size\n1,a," + String(repeating: "x", count: 1_000_000) + "\n")
    let long = try CLI.run(["run", "--trace", big, "--policies", "lru", "--sizes", "1MiB"])
    #expect(long.status == 1 && long.stderr.count < 600 && long.stderr.contains("big.cachelab.csv:2: size 'xxx"))
    try Self.expect(
      ["run", "--trace", Self.oracle, "--policies", "lru", "--sizes", "1MiB", "--output", ""], status: 64,
      "--output must not be empty")
  }

  @Test func outputsAreRegularFilesKeepTheirModeAndLeftoversGo() throws {
    let target = Self.file("target.csv", "untouched")
    let link = Self.folder.appendingPathComponent("link.csv").path
    unlink(link)
    #expect(symlink(target, link) == 0)
    try Self.expect(
      ["run", "--trace", Self.oracle, "--policies", "lru", "--sizes", "1MiB", "--output", link, "--quiet"], status: 1,
      "is a symbolic link")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched")
    let report = Self.folder.appendingPathComponent("mode.csv").path
    let arguments = [
      "run", "--trace", Self.oracle, "--policies", "lru", "--sizes", "1MiB", "--output", report, "--quiet",
    ]
    #expect(try CLI.run(arguments).status == 0)
    #expect(chmod(report, 0o600) == 0)
    let leftover = report + ".tmp-999999-zz"
    FileManager.default.createFile(atPath: leftover, contents: Data())
    #expect(try CLI.run(arguments).status == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: report)
    #expect((attributes[.posixPermissions] as? Int) == 0o600, "a replaced report keeps its mode")
    #expect(!FileManager.default.fileExists(atPath: leftover), "a killed run's temporary file is removed")
    let nested = Self.folder.appendingPathComponent("new/dir/out.csv").path
    #expect(
      try CLI.run([
        "run", "--trace", Self.oracle, "--policies", "lru", "--sizes", "1MiB", "--output", nested, "--quiet",
      ]).status == 0)
    #expect(FileManager.default.fileExists(atPath: nested), "missing parent folders are created")
  }
}
