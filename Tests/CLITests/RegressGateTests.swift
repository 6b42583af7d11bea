import CacheCore
import Foundation
import Reports
import TestSupport
import Testing

/// `cachelab regress` as CI runs it: side by side with a reference executable (here a script
/// standing in for one, reporting a chosen speed, so the verdicts are certain whatever the
/// machine does), the JUnit and history files, what is said without a reference, and
/// baselines that are empty or hand-edited.
@Suite(.serialized) struct RegressGateTests {
  static let trace = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  /// A fresh baseline folder: lru and sieve at one size, two runs.
  static func baseline() throws -> String {
    let folder = Paths.temporaryDirectory("gate").appendingPathComponent("baseline").path
    let made = try CLI.run([
      "regress", "--create", folder, "--trace", trace, "--policies", "lru,sieve", "--sizes", "0.05", "--repeat", "2",
      "--quiet",
    ])
    #expect(made.status == 0, "\(made.stderr)")
    return folder
  }

  /// A stand-in reference build: `regress --baseline DIR --update` rewrites requests_per_second
  /// in DIR's report to `speed`, and fails (exit 1) on a report holding policy `failing`.
  static func reference(speed: String, failing: String = "none") -> String {
    let script = """
      #!/bin/sh
      dir=""
      while [ $# -gt 0 ]; do case "$1" in --baseline) dir="$2"; shift;; esac; shift; done
      for f in "$dir"/*.csv; do
        if grep -q ",\(failing)," "$f"; then echo "Error: $f:2: unknown policy '\(failing)'" >&2; exit 1; fi
        awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++) if($i=="requests_per_second") c=i; print; next} {$c="\(speed)"; print}' "$f" > "$f.new"
        mv "$f.new" "$f"
      done
      echo "baseline updated"
      """
    let path = Paths.temporaryFile("reference-\(speed)-\(failing).sh", text: script)
    chmod(path, 0o755)
    return path
  }

  @Test func aBuildFarSlowerThanItsReferenceFailsNamingEveryConfiguration() throws {
    let folder = try Self.baseline()
    let files = Paths.temporaryDirectory("gate-out")
    let junit = files.appendingPathComponent("gate.xml").path
    let history = files.appendingPathComponent("speed.csv").path
    let outcome = try CLI.run([
      "regress", "--baseline", folder, "--speed-against", Self.reference(speed: "1000000000000000"), "--rounds", "6",
      "--junit", junit, "--history", history,
    ])
    #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stdout.contains("every deterministic column matches"))
    #expect(outcome.stdout.contains("\nspeed: 2 configurations, 6 full rounds after a warm-up, "), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("speed: side by side in fresh processes: this build /"))
    #expect(outcome.stdout.contains("speed: 2 of 2 configurations slower"), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("lru @ 0.05: ×0.00 (95 % interval ×0.00…×0.00, 12 rounds; fails below ×0.75)"))
    #expect(outcome.stdout.contains("sieve @ 0.05: ×0.00"))
    #expect(outcome.stdout.contains("speed: overall (geometric mean) ×0.00") && outcome.stdout.contains(": SLOWER"))
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("tests=\"4\" failures=\"3\" skipped=\"0\""), "\(xml)")
    #expect(xml.contains("name=\"speed: \(folder)/baseline.csv: lru @ 0.05\"><failure"))
    #expect(xml.contains("name=\"speed: overall\"><failure"))
    let rows = try ReportTable(contentsOf: history)
    #expect(rows.rows.map { rows.value($0, "configuration")! } == ["overall", "lru @ 0.05", "sieve @ 0.05"])
    // The overall ratio counts full rounds; a configuration judged slower got one more batch.
    #expect(rows.rows.map { rows.value($0, "rounds")! } == ["6", "12", "12"])
    #expect(rows.rows.allSatisfy { rows.value($0, "verdict") == "slower" })
    #expect(rows.rows.allSatisfy { Double(rows.value($0, "ratio_ci95_high")!)! < 0.001 })
  }

  @Test func aBuildFasterThanItsReferencePassesAndTheHistoryGrows() throws {
    let folder = try Self.baseline()
    let history = Paths.temporaryDirectory("gate-out").appendingPathComponent("speed.csv").path
    for run in 1...2 {
      let outcome = try CLI.run([
        "regress", "--baseline", folder, "--speed-against", Self.reference(speed: "1"), "--rounds", "6",
        "--history", history,
      ])
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
      #expect(outcome.stdout.contains("speed: no configuration slower than ×0.75 with 95 % confidence"))
      #expect(outcome.stdout.contains(": not slower") && outcome.stdout.hasSuffix("no regression\n"))
      #expect(try ReportTable(contentsOf: history).rows.count == 3 * run)
    }
  }

  @Test func whatTheReferenceCannotReplayIsListedAndNotJudged() throws {
    let folder = try Self.baseline()
    let outcome = try CLI.run([
      "regress", "--baseline", folder, "--speed-against", Self.reference(speed: "1", failing: "sieve"), "--rounds",
      "6",
    ])
    #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stdout.contains("speed: not judged, the reference build cannot replay it ("), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("unknown policy 'sieve'): sieve @ 0.05"), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("speed: 1 configurations, 6 full rounds"))
    let nothing = try CLI.run([
      "regress", "--baseline", folder, "--speed-against", Self.reference(speed: "1", failing: "oracle-general"),
      "--rounds", "6",
    ])
    #expect(nothing.status == 1 && nothing.stderr.contains("could not replay"), "\(nothing.stderr)")
  }

  @Test func withoutAReferenceSpeedIsNotJudgedAndTheLineSaysWhy() throws {
    let folder = try Self.baseline()
    let machine = folder + "/machine.txt"
    let recorded = try String(contentsOfFile: machine, encoding: .utf8)
    #expect(recorded.contains("build: debug") && recorded.contains("cores: "))
    let same = try CLI.run(["regress", "--baseline", folder])
    #expect(same.status == 0)
    #expect(same.stdout.contains("speed not judged: the baseline was measured on this machine, but at another moment"))
    let cpu = recorded.split(separator: "\n").first { $0.hasPrefix("cpu: ") }!
    try recorded.replacingOccurrences(of: String(cpu), with: "cpu: Imaginary 9000").write(
      toFile: machine, atomically: true, encoding: .utf8)
    let other = try CLI.run(["regress", "--baseline", folder, "--junit", folder + "/../gate.xml"])
    #expect(other.status == 0)
    #expect(other.stdout.contains("speed not judged: baseline made on "), "\(other.stdout)")
    #expect(other.stdout.contains("(Imaginary 9000, ") && other.stdout.contains(", this machine is "))
    #expect(other.stdout.contains("; pass --speed-against to compare builds\n"))
    let xml = try String(contentsOfFile: folder + "/../gate.xml", encoding: .utf8)
    #expect(xml.contains("tests=\"4\" failures=\"0\" skipped=\"3\""), "a skipped case per configuration and overall")
    try FileManager.default.removeItem(atPath: machine)
    let unknown = try CLI.run(["regress", "--baseline", folder])
    #expect(unknown.stdout.contains("does not say which machine measured it (no machine.txt)"))
    #expect(try CLI.run(["regress", "--baseline", folder, "--update"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: machine), "--update records the machine again")
  }

  @Test func badArgumentsAreUsageErrors() throws {
    let folder = try Self.baseline()
    let reference = Self.reference(speed: "1")
    let cases: [([String], String)] = [
      (["--speed-against", reference, "--rounds", "5"], "--rounds must be from 6"),
      (["--speed-against", "/nonexistent/cachelab"], "--speed-against /nonexistent/cachelab: No such file"),
      (["--speed-against", folder], "not an executable file"),
      (["--history", folder + "/../h.csv"], "--history records side-by-side speed: give --speed-against too"),
      (["--speed-against", reference, "--no-speed"], "not with --no-speed"),
      (["--speed-tolerance", "1.5"], "--speed-tolerance must be in (0, 1)"),
      (["--junit", folder + "/./baseline.csv"], "is the baseline report"),
      (["--speed-against", reference, "--history", folder + "/history.csv"], "where the next check would read it"),
      (
        ["--speed-against", reference, "--junit", folder + "/../x", "--history", folder + "/../x"], "name the same file"
      ),
    ]
    for (arguments, message) in cases {
      let outcome = try CLI.run(["regress", "--baseline", folder] + arguments)
      #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
    }
    #expect(try String(contentsOfFile: folder + "/baseline.csv", encoding: .utf8).hasPrefix("trace,"))
  }

  /// fault-cases-3 D12: a baseline whose report holds no rows is an error, not a pass.
  @Test func aBaselineWithoutRowsIsAnError() throws {
    let folder = try Self.baseline()
    let report = folder + "/baseline.csv"
    let header = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")[0]
    try (header + "\n").write(toFile: report, atomically: true, encoding: .utf8)
    let outcome = try CLI.run(["regress", "--baseline", folder, "--junit", folder + "/../j.xml"])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("\(report): holds no rows, so there is nothing to check"), "\(outcome.stderr)")
  }

  @Test func handEditedBaselinesAreRefusedWithTheLine() throws {
    let folder = try Self.baseline()
    let report = folder + "/baseline.csv"
    let original = try ReportTable(contentsOf: report)
    // A column deleted from the middle.
    let misses = try original.column("misses")
    let cut = ReportTable(
      path: report, header: original.header.enumerated().filter { $0.offset != misses }.map(\.element),
      rows: original.rows.map { $0.enumerated().filter { $0.offset != misses }.map(\.element) })
    try cut.render().write(toFile: report, atomically: true, encoding: .utf8)
    let missing = try CLI.run(["regress", "--baseline", folder, "--no-speed"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("\(report):1: missing columns misses;"), "\(missing.stderr)")
    // A policy the registry does not know, on the third line.
    var renamed = original
    renamed.rows[1][try original.column("policy")] = "lruu"
    try renamed.render().write(toFile: report, atomically: true, encoding: .utf8)
    let unknown = try CLI.run(["regress", "--baseline", folder, "--no-speed"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("\(report):3: "), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("lruu"), "\(unknown.stderr)")
  }
}
