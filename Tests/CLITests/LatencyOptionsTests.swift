import Engine
import Foundation
import Reports
import TestSupport
import Testing

/// `--latency`, `--latency-profile` (names and TOML files, also from a study) and
/// `cachelab profiles`, through the real `cachelab`: what the report records and what is refused.
@Suite struct LatencyOptionsTests {
  static let trace = Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path

  @Test func compareTestsLatencyColumnsOnPairedWindowsLiveAndFromTheSeriesFile() throws {
    let folder = Paths.temporaryDirectory("latency-compare")
    let series = folder.appendingPathComponent("windows.csv").path
    for metric in ["latency_p50", "disk_hit_latency_p90", "origin_latency_p50"] {
      let live = try CLI.run([
        "compare", "--trace", Self.trace, "--preset", "sdwebimage,nuke", "--window", "1000r", "--metric", metric,
        "--window-series", series,
      ])
      #expect(live.status == 0, "\(live.stderr)")
      #expect(live.stdout.contains("paired-t") && live.stdout.contains("windows"), "\(metric): \(live.stdout)")
      #expect(live.stdout.contains("each window's own \(metric)"), "\(live.stdout)")
      let table = try ReportTable(contentsOf: series)
      #expect(table.header.contains(metric) && table.rows.allSatisfy { Double(table.value($0, metric) ?? "") != nil })
      let fromSeries = try CLI.run(["compare", series, "--metric", metric])
      #expect(fromSeries.status == 0, "\(fromSeries.stderr)")
      #expect(fromSeries.stdout.contains("paired-t"), "\(fromSeries.stdout)")
    }
  }

  @Test func profilesFilesAndTheSpecLayerInOrderAndTheReportRecordsThem() throws {
    let folder = Paths.temporaryDirectory("latency-profile")
    let file = folder.appendingPathComponent("phone.toml").path
    try """
    name = "phone"
    source = "measured on a test phone"
    disk-read = "300us+900MB/s"
    memory = "5us"

    [calibration.disk-read]
    points = 12
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("out.csv").path
    let outcome = try CLI.run([
      "run", "--trace", Self.trace, "--preset", "nuke", "--quiet", "--output", output,
      "--latency-profile", "chrome-devtools-fast-4g,\(file)", "--latency", "memory=7us",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(text.contains("chrome-devtools-fast-4g + \(file) + --latency"), "\(text.suffix(400))")
    #expect(
      text.contains(
        "memory=7us,disk-read=300us+900MB/s,disk-write=100us+500MB/s,disk-delete=0us,disk-touch=0us,"
          + "revalidation=origin,origin=165ms+1.0125MB/s,headers=300B"), "\(text.suffix(400))")
    let defaults = folder.appendingPathComponent("defaults.csv").path
    #expect(
      try CLI.run(["run", "--trace", Self.trace, "--preset", "nuke", "--quiet", "--output", defaults]).status == 0)
    let modelled = try String(contentsOfFile: defaults, encoding: .utf8)
    #expect(modelled.contains(",default,\"memory=20us,"), "\(modelled.suffix(300))")
  }

  @Test func aBaselineMadeWithAProfileReplaysWithIt() throws {
    let baseline = Paths.temporaryDirectory("latency-baseline").appendingPathComponent("b").path
    let create = try CLI.run([
      "regress", "--create", baseline, "--trace", Self.trace, "--preset", "nuke,sdwebimage",
      "--latency-profile", "chrome-devtools-3g", "--latency", "disk=1ms", "--repeat", "1",
    ])
    #expect(create.status == 0, "\(create.stdout)\(create.stderr)")
    let check = try CLI.run(["regress", "--baseline", baseline, "--no-speed"])
    #expect(
      check.status == 0 && check.stdout.contains("every deterministic column matches"), "\(check.stdout)\(check.stderr)"
    )
  }

  @Test func aBadProfileFileNamesItsLine() throws {
    let folder = Paths.temporaryDirectory("latency-profile-bad")
    let file = folder.appendingPathComponent("bad.toml").path
    try "name = \"x\"\nmemory = \"5us\"\ndsk-read = \"1us\"\n".write(toFile: file, atomically: true, encoding: .utf8)
    let outcome = try CLI.run(["run", "--trace", Self.trace, "--preset", "nuke", "--latency-profile", file])
    #expect(
      outcome.status == 64 && outcome.stderr.contains("bad.toml:3: 'dsk-read' is no latency key"), "\(outcome.stderr)")
    try "memory = 5\n".write(toFile: file, atomically: true, encoding: .utf8)
    let number = try CLI.run(["run", "--trace", Self.trace, "--preset", "nuke", "--latency-profile", file])
    #expect(number.status == 64 && number.stderr.contains("bad.toml:1: 'memory' must be a string"), "\(number.stderr)")
    let missing = try CLI.run(["run", "--trace", Self.trace, "--preset", "nuke", "--latency-profile", "none.toml"])
    #expect(missing.status != 0 && missing.stderr.contains("none.toml"), "\(missing.stderr)")
  }

  @Test func latencyWithoutEnginesIsAUsageError() throws {
    let outcome = try CLI.run([
      "run", "--trace", Self.trace, "--policies", "lru", "--sizes", "0.1", "--latency", "memory=1us",
    ])
    #expect(
      outcome.status == 64 && outcome.stderr.contains("a plain policy run models no latency"), "\(outcome.stderr)")
  }

  @Test func aStudysProfileFileIsFoundBesideIt() throws {
    let folder = Paths.temporaryDirectory("latency-study")
    try "disk-read = \"1ms\"\n".write(
      toFile: folder.appendingPathComponent("slow.toml").path, atomically: true, encoding: .utf8)
    let study = folder.appendingPathComponent("s.toml").path
    try """
    [[trace]]
    path = "\(Self.trace)"
    [run]
    presets = ["nuke"]
    latency-profile = ["chrome-devtools-3g", "slow.toml"]
    output = "out.csv"
    quiet = true
    """.write(toFile: study, atomically: true, encoding: .utf8)
    let outcome = try CLI.run(["run", "--config", study])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let text = try String(contentsOfFile: folder.path + "/out.csv", encoding: .utf8)
    #expect(text.contains("chrome-devtools-3g + \(folder.path)/slow.toml") && text.contains("disk-read=1ms,"))
  }

  @Test func calibrateMeasuresFitsAndWritesAProfileThatRunReads() throws {
    let folder = Paths.temporaryDirectory("calibrate")
    let profile = folder.appendingPathComponent("disk.toml").path
    let chart = folder.appendingPathComponent("disk.svg").path
    let outcome = try CLI.run([
      "calibrate", "--disk-backend", "file:\(folder.path)/store", "--sizes", "1KiB..64KiB", "--repeat", "3",
      "--output", profile, "--chart", chart, "--quiet",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    for operation in ["write", "read", "touch", "delete", "scan"] {
      #expect(outcome.stdout.contains("\n\(operation) "), "\(operation) missing from\n\(outcome.stdout)")
    }
    #expect(outcome.stdout.contains("7 sizes (1KiB..64KiB) × 3 repeats"))
    let text = try String(contentsOfFile: profile, encoding: .utf8)
    #expect(text.contains("disk-read = \"") && text.contains("disk-write = \"") && text.contains("[calibration.read]"))
    #expect(text.contains("spread_p90_over_median = ") && outcome.stdout.contains("spread"), "each fit's spread")
    let svg = try String(contentsOfFile: chart, encoding: .utf8)
    #expect(svg.contains("<circle") && svg.contains("stroke-dasharray"))
    #expect(FileStoreContents(directory: folder.path + "/store/calibrate").objects == 0, "the folder is emptied")
    let output = folder.appendingPathComponent("run.csv").path
    let run = try CLI.run([
      "run", "--trace", Self.trace, "--preset", "nuke", "--latency-profile", profile, "--quiet", "--output", output,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains(profile))
  }

  @Test(arguments: [
    ["--disk-backend", "simulated"], ["--disk-backend", "file:x", "--sizes", "16MiB..1KiB"],
    ["--disk-backend", "file:x", "--sizes", "1KiB..2KiB"], ["--disk-backend", "file:x", "--repeat", "1"],
    ["--disk-backend", "file:x", "--chart", "x.png"], ["--sizes", "1KiB..1MiB"],
  ])
  func badCalibrateArgumentsAreUsageErrors(arguments: [String]) throws {
    let outcome = try CLI.run(["calibrate"] + arguments)
    #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
  }

  @Test func profilesListsEveryProfileWithItsSource() throws {
    let names = try CLI.run(["profiles", "--names"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let details = try CLI.run(["profiles", "--details"]).stdout
    for name in names.split(separator: ",") {
      #expect(details.contains(String(name)))
    }
    #expect(names.split(separator: ",").count >= 8)
    #expect(
      details.contains("source: ChromeDevTools/devtools-frontend@") && details.contains("sets: origin=165ms+1012500B/s")
    )
  }
}
