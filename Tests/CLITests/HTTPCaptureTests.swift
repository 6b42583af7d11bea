import Foundation
import Reports
import TestSupport
import Testing

/// The committed capture that real nginx made (Scripts/capture-http.sh; command in
/// Traces/README.md) replays through presets and a policy, and the observed
/// columns count exactly the lines nginx marked as served from its cache.
@Suite struct HTTPCaptureTests {
  static let capture = Paths.packageRoot.appendingPathComponent("Traces/captures/nginx-http.access.log").path
  /// The `--format` that reads it (the log_format Scripts/capture_http.py gives nginx), from
  /// the file the script writes beside the capture.
  static let format =
    (try? String(contentsOfFile: capture + ".format", encoding: .utf8))?
    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "missing \(capture).format"

  @Test func nginxCaptureReplaysWithItsObservedOutcome() throws {
    let text = try String(contentsOfFile: Self.capture, encoding: .utf8)
    let statuses = text.split(separator: "\n").map { line in
      line.split(separator: " ").dropLast().last.map(String.init) ?? ""
    }
    let served = statuses.filter { ["HIT", "STALE", "UPDATING", "REVALIDATED"].contains($0) }.count
    let fetched = statuses.filter { ["MISS", "EXPIRED", "BYPASS"].contains($0) }.count
    #expect(served > 0 && fetched > 0 && served + fetched == statuses.count)

    let csv = FaultCases3OutputTests.Scratch().path + "/capture.csv"
    let outcome = try CLI.run([
      "run", "--trace", Self.capture, "--format", Self.format, "--preset", "kingfisher,nuke,urlcache-linux",
      "--policies", "lru", "--sizes", "16MiB", "--output", csv,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains(": \(statuses.count) requests"), "\(outcome.stdout)")
    let table = try ReportTable(contentsOf: csv)
    #expect(table.rows.count == 4)
    for row in table.rows {
      #expect(table.value(row, "observed_hits") == String(served))
      #expect(table.value(row, "observed_hit_ratio") == Decimal.fixed(Double(served) / Double(served + fetched), 6))
      #expect(table.value(row, "requests") == String(statuses.count))
    }
  }
}

/// The Squid and mitmproxy captures (Scripts/capture-http.sh; commands in Traces/README.md):
/// the same `gen http` workload as the nginx one, through a real Squid writing its native log
/// with `log_mime_hdrs`, and through mitmdump writing a HAR.
@Suite struct SquidAndMitmproxyCaptureTests {
  static let squid = Paths.packageRoot.appendingPathComponent("Traces/captures/squid-http.access.log").path
  static let har = Paths.packageRoot.appendingPathComponent("Traces/captures/mitmproxy-http.har").path

  /// The figures of `run` on `trace` with three presets and LRU, then with a custom
  /// `--expiry http:shared` engine, as one report table (four rows, then one).
  static func replay(_ trace: String, format: String? = nil) throws -> (stdout: String, table: ReportTable) {
    let scratch = FaultCases3OutputTests.Scratch().path
    var stdout = ""
    var table: ReportTable?
    for (index, engines) in [
      ["--preset", "kingfisher,nuke,urlcache-linux", "--policies", "lru", "--sizes", "16MiB"],
      ["--memory", "lru:4MiB", "--disk", "lru:64MiB", "--expiry", "http:shared"],
    ].enumerated() {
      let csv = scratch + "/capture-\(index).csv"
      let outcome = try CLI.run(
        ["run", "--trace", trace] + engines + (format.map { ["--format", $0] } ?? []) + ["--output", csv])
      #expect(outcome.status == 0, "\(outcome.stderr)")
      stdout += outcome.stdout
      let part = try ReportTable(contentsOf: csv)
      #expect(table == nil || table?.header == part.header, "one column set for presets and engines")
      if table == nil { table = part } else { table?.rows += part.rows }
    }
    return (stdout, try #require(table))
  }

  @Test func squidCaptureReplaysWithItsObservedOutcome() throws {
    let lines = try String(contentsOfFile: Self.squid, encoding: .utf8).split(separator: "\n")
    #expect(try String(contentsOfFile: Self.squid + ".format", encoding: .utf8).hasPrefix("squid"))
    // Fields: time elapsed client CODE/status bytes method URL … [request headers] [reply headers]
    let records = lines.map { $0.split(separator: " ") }.filter { $0[5] == "GET" && $0[6].hasPrefix("http://") }
    let codes = records.map { $0[3].split(separator: "/")[0] }
    let served = codes.filter { ["TCP_MEM_HIT", "TCP_HIT", "TCP_REFRESH_UNMODIFIED", "TCP_IMS_HIT"].contains($0) }
    let fetched = codes.filter { ["TCP_MISS", "TCP_REFRESH_MODIFIED"].contains($0) }
    #expect(!served.isEmpty && !fetched.isEmpty && served.count + fetched.count == records.count, "\(Set(codes))")
    #expect(lines.allSatisfy { $0.hasSuffix("]") }, "every line carries log_mime_hdrs")
    let (stdout, table) = try Self.replay(Self.squid)
    #expect(stdout.contains(": \(records.count) requests"), "\(stdout)")
    #expect(table.rows.count == 5)
    for row in table.rows {
      #expect(table.value(row, "observed_hits") == String(served.count))
      #expect(table.value(row, "requests") == String(records.count))
    }
    // The headers Squid logged are read: the same workload's cacheability as nginx logged it.
    let squid = try CLI.run(["inspect", Self.squid, "--quiet"]).stdout
    let nginx = try CLI.run(["inspect", HTTPCaptureTests.capture, "--format", HTTPCaptureTests.format, "--quiet"])
      .stdout
    for figure in [
      "distinct objects", "working set", "  no-store", "  no-cache", "  ETag and Last-Modified", "  image",
    ] {
      let line = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix(figure) } }
      #expect(line(squid) != nil && line(squid) == line(nginx), "\(figure)\n\(squid)\n\(nginx)")
    }
  }

  @Test func mitmproxyHARReplaysEveryEntry() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.har))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let log = try #require(root["log"] as? [String: Any])
    let entries = try #require(log["entries"] as? [[String: Any]])
    #expect((log["creator"] as? [String: Any])?["name"] as? String == "mitmproxy")
    let (stdout, table) = try Self.replay(Self.har)
    #expect(stdout.contains(": \(entries.count) requests") && stdout.contains("mitmproxy HAR"), "\(stdout)")
    // No cache on the path: nothing is observed, and the LRU row's misses are the distinct URLs.
    let urls = Set(entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String })
    for row in table.rows { #expect(table.value(row, "observed_hits") == "") }
    let lru = try #require(table.rows.first { table.value($0, "policy") == "lru" })
    #expect(table.value(lru, "misses") == String(urls.count), "\(urls.count) URLs")
  }
}

/// Makes a small capture with each real server or tool (Scripts/capture_http.py), then
/// replays it: every request of the workload is read, and the observed hits are exactly the
/// records the server's own log marks as served. `.ci/run` installs the tools
/// (Scripts/ensure-capture-tools.sh); elsewhere a missing one skips with a message.
@Suite struct LiveCaptureTests {
  static let script = Paths.packageRoot.appendingPathComponent("Scripts/capture_http.py").path

  /// Where `server`'s program is, if installed.
  static func tool(_ server: String) -> String? {
    let candidates =
      server == "mitmproxy"
      ? [Paths.packageRoot.appendingPathComponent(".venv-capture/bin/mitmdump").path]
      : ["/usr/sbin/\(server)", "/usr/bin/\(server)", "/usr/local/sbin/\(server)", "/usr/local/bin/\(server)"]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test(arguments: ["nginx", "squid", "mitmproxy"]) func captureAndReplay(server: String) throws {
    guard Self.tool(server) != nil else {
      if Paths.isCI {
        Issue.record("\(server) is not installed: .ci/run installs it with Scripts/ensure-capture-tools.sh")
      } else {
        print("skipping: \(server) is not installed (bash Scripts/ensure-capture-tools.sh installs it)")
      }
      return
    }
    let capture = FaultCases3OutputTests.Scratch().path + "/capture." + (server == "mitmproxy" ? "har" : "log")
    let asked = server == "mitmproxy" ? 60 : 300
    // timeout(1) bounds the whole capture generously; the script bounds each wait itself.
    let made = try ChildProcess.run(
      "/usr/bin/timeout",
      ["600", "python3", Self.script, server, "--output", capture, "--requests", String(asked), "--seed", "7"]
        + (server == "mitmproxy" ? ["--size-scale", "1000"] : []),
      environment: ["CACHELAB": CLI.binary])
    #expect(made.status == 0, "\(made.stderr)")
    let format = try String(contentsOfFile: capture + ".format", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let text = try String(contentsOfFile: capture, encoding: .utf8)
    // The workload's GETs, as the server or tool logged them.
    let lines = text.split(separator: "\n")
    let requests =
      server == "mitmproxy"
      ? text.components(separatedBy: "\"startedDateTime\"").count - 1
      : lines.filter { $0.contains(" GET http") || $0.contains("\"GET /") }.count
    #expect(requests > asked / 2 && requests <= asked, "\(requests) of \(asked)")
    var served = 0
    if server == "nginx" {
      served =
        text.split(separator: "\n").filter { line in
          ["HIT", "STALE", "UPDATING", "REVALIDATED"].contains(
            line.split(separator: " ").dropLast().last.map(String.init))
        }.count
    } else if server == "squid" {
      served =
        text.split(separator: "\n").filter { line in
          ["TCP_MEM_HIT", "TCP_HIT", "TCP_REFRESH_UNMODIFIED", "TCP_IMS_HIT"].contains(
            line.split(separator: " ")[3].split(separator: "/")[0])
        }.count
    }
    let csv = capture + ".csv"
    let outcome = try CLI.run([
      "run", "--trace", capture, "--format", format, "--preset", "kingfisher,urlcache-linux", "--output", csv,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains(": \(requests) requests"), "\(outcome.stdout)")
    let table = try ReportTable(contentsOf: csv)
    for row in table.rows {
      #expect(table.value(row, "observed_hits") == (server == "mitmproxy" ? "" : String(served)), "\(server)")
    }
    if server != "mitmproxy" { #expect(served > 0, "\(server) served nothing from its cache") }
  }
}

/// Every real producer's HAR (Tests/TracesTests/Fixtures/har-producers) replays through
/// policies, every preset and a custom `--expiry http` engine, each counting the same requests
/// and the client-cache answers the HAR marks.
@Suite struct HARProducerReplayTests {
  static let folder = Paths.packageRoot.appendingPathComponent("Tests/TracesTests/Fixtures/har-producers").path
  static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".har") }.sorted()

  @Test(arguments: files) func replaysThroughPoliciesPresetsAndAnEngine(file: String) throws {
    let path = Self.folder + "/" + file
    let scratch = FaultCases3OutputTests.Scratch().path
    let first = try CLI.run(["run", "--trace", path, "--policies", "lru", "--sizes", "1"])
    #expect(first.status == 0, "\(file): \(first.stderr)")
    let requests = try #require(first.stdout.firstMatch(of: #/: (\d+) requests/#)?.1, "\(first.stdout)")
    var client: String?
    for engines in [
      ["--policies", "lru,sieve", "--sizes", "64KiB,1MiB"], ["--preset", "kingfisher,nuke,urlcache-linux,sdwebimage"],
      ["--memory", "lru:1MiB", "--disk", "lru:16MiB", "--expiry", "http"],
    ] {
      let csv = scratch + "/\(UUID().uuidString.prefix(8)).csv"
      let outcome = try CLI.run(["run", "--trace", path, "--output", csv, "--quiet"] + engines)
      #expect(outcome.status == 0, "\(file) \(engines): \(outcome.stderr)")
      let table = try ReportTable(contentsOf: csv)
      #expect(!table.rows.isEmpty)
      for row in table.rows {
        #expect(table.value(row, "requests") == String(requests), "\(file) \(engines)")
        let hits = table.value(row, "observed_client_hits")
        #expect(client == nil || hits == client, "\(file) \(engines)")
        client = hits
      }
    }
  }
}

/// `convert` turns the nginx capture into the cachelab CSV, plain and anonymized, and every
/// preset, a policy and a custom `--expiry http` engine give exactly the same figures on the
/// converted files as on the capture itself.
@Suite struct HTTPConvertReplayTests {
  /// Report columns that describe the run rather than what the caches did.
  static let incidental: Set<String> = [
    "trace", "format", "replay_seconds", "requests_per_second", "peak_memory_bytes", "cache_memory_bytes",
  ]

  /// The report of `engines` run on `trace` (in `format`, when given), written beside `scratch`.
  static func report(_ trace: String, format: String?, _ engines: [String], _ scratch: String) throws -> ReportTable {
    let csv = scratch + "/\(UUID().uuidString.prefix(8)).csv"
    let outcome = try CLI.run(
      ["run", "--trace", trace] + (format.map { ["--format", $0] } ?? []) + engines + ["--output", csv, "--quiet"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try ReportTable(contentsOf: csv)
  }

  /// The traces converted: the nginx capture, and a `gen http` trace in the cachelab CSV itself.
  static let sources: [(path: String, format: String?)] = [
    (HTTPCaptureTests.capture, HTTPCaptureTests.format),
    (Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path, nil),
  ]

  @Test(arguments: 0..<2) func convertedTracesReplayExactlyAsTheirSource(source: Int) throws {
    let (trace, format) = Self.sources[source]
    let scratch = FaultCases3OutputTests.Scratch().path
    // Every preset: the lines of `cachelab presets` that start with a name.
    let presets = try CLI.run(["presets"]).stdout.split(separator: "\n").compactMap { line -> String? in
      line.first?.isLetter == true ? line.split(separator: " ").first.map(String.init) : nil
    }
    #expect(presets.contains("urlcache-linux") && presets.contains("kingfisher"), "\(presets)")
    let runs: [[String]] = [
      ["--preset", presets.joined(separator: ",")],
      ["--policies", "lru,sieve", "--sizes", "4MiB,16MiB"],
      ["--memory", "lru:16MiB", "--expiry", "http:shared"],
    ]
    let plain = scratch + "/plain.cachelab.csv"
    let salted = scratch + "/salted.cachelab.csv"
    let again = scratch + "/again.cachelab.csv"
    let random = scratch + "/random.cachelab.csv"
    let requests = try CLI.run(
      ["run", "--trace", trace, "--policies", "lru", "--sizes", "1"] + (format.map { ["--format", $0] } ?? []))
    let count = try #require(requests.stdout.firstMatch(of: #/: (\d+) requests/#)?.1)
    for (output, extra) in [
      (plain, []), (salted, ["--anonymize=s3cret"]), (again, ["--anonymize=s3cret"]),
      (random, ["--anonymize"]),
    ] {
      let outcome = try CLI.run(["convert", trace, output] + (format.map { ["--format", $0] } ?? []) + extra)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      #expect(outcome.stdout.contains(": \(count) requests"), "\(outcome.stdout)")
    }
    let saltedText = try String(contentsOfFile: salted, encoding: .utf8)
    #expect(saltedText == (try String(contentsOfFile: again, encoding: .utf8)), "one salt, one spelling")
    #expect(saltedText != (try String(contentsOfFile: random, encoding: .utf8)))
    #expect(!saltedText.contains("example.com") && !saltedText.contains("/img/"))
    #expect(saltedText.contains(".jpg,") && saltedText.contains(",url_length"))
    for engines in runs {
      let original = try Self.report(trace, format: format, engines, scratch)
      #expect(!original.rows.isEmpty)
      for converted in [plain, salted, random] {
        let table = try Self.report(converted, format: nil, engines, scratch)
        #expect(table.rows.count == original.rows.count)
        for (before, after) in zip(original.rows, table.rows) {
          for column in original.header where !Self.incidental.contains(column) {
            #expect(
              original.value(before, column) == table.value(after, column),
              "\(engines) \(converted): \(column) \(original.value(before, column) ?? "-") → \(table.value(after, column) ?? "-")"
            )
          }
        }
      }
    }
  }

  @Test func anonymizingWhatHasNoURLsOrToAnotherFormatIsAUsageError() throws {
    let scratch = FaultCases3OutputTests.Scratch().path
    let zipf = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path
    let cases: [([String], String)] = [
      (["convert", zipf, scratch + "/z.cachelab.csv", "--anonymize"], "needs an HTTP trace"),
      (
        [
          "convert", HTTPCaptureTests.capture, scratch + "/z.oracleGeneral.bin", "--format", HTTPCaptureTests.format,
          "--anonymize=x",
        ], "writes the cachelab format"
      ),
      (["convert", zipf, scratch + "/z.cachelab.csv", "--anonymize=a", "--anonymize"], "given twice"),
    ]
    for (arguments, message) in cases {
      let outcome = try CLI.run(arguments)
      #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
      #expect(!FileManager.default.fileExists(atPath: arguments[2]))
    }
  }
}

/// `inspect` on the nginx capture: every HTTP figure is the count a plain reading of the log
/// text gives.
@Suite struct HTTPInspectTests {
  @Test func inspectCountsWhatTheLogSays() throws {
    let lines = try String(contentsOfFile: HTTPCaptureTests.capture, encoding: .utf8).split(separator: "\n")
    // Fields: $msec $scheme $host "$request" $status … "$sent_http_cache_control" … $upstream_cache_status …
    let quoted = lines.map { line in line.split(separator: "\"", omittingEmptySubsequences: false).map(String.init) }
    let hosts = Dictionary(grouping: lines.map { $0.split(separator: " ")[2] }, by: { String($0) }).mapValues(\.count)
    let noStore = quoted.filter { $0[3].contains("no-store") }.count
    let noCache = quoted.filter { $0[3].contains("no-cache") }.count
    let served = lines.filter { line in
      ["HIT", "STALE", "UPDATING", "REVALIDATED"].contains(line.split(separator: " ").dropLast().last.map(String.init))
    }.count
    let scratch = FaultCases3OutputTests.Scratch().path
    let outcome = try CLI.run([
      "inspect", HTTPCaptureTests.capture, "--format", HTTPCaptureTests.format, "--output", scratch + "/i.csv",
      "--quiet",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let text = outcome.stdout
    #expect(text.contains("HTTP: \(lines.count) requests"), "\(text)")
    #expect(text.contains("served \(served) of \(lines.count) requests"), "\(text)")
    for (host, count) in hosts {
      #expect(text.contains(try Regex("\\n  \(host) +\(count) ")), "\(host) \(count)\n\(text)")
    }
    let csv = try String(contentsOfFile: scratch + "/i.csv", encoding: .utf8)
    #expect(csv.contains("http_cache_control,no-store,,,\(noStore)\n"), "\(csv)")
    #expect(csv.contains("http_cache_control,no-cache,,,\(noCache)\n"), "\(csv)")
    #expect(csv.contains("http_observed,upstream_hits,,,\(served)\n"), "\(csv)")
    #expect(csv.contains("http_status,200,,,\(lines.count)\n"), "\(csv)")
    // The rate rows add up to every request.
    let rate = csv.split(separator: "\n").filter { $0.hasPrefix("http_rate,requests,") }
    #expect(rate.map { Int($0.split(separator: ",").last!)! }.reduce(0, +) == lines.count)
  }

  @Test func reportHoldsTheTablesTheCSVAndTheCharts() throws {
    let scratch = FaultCases3OutputTests.Scratch().path
    let report = scratch + "/inspection"
    let outcome = try CLI.run([
      "inspect", HTTPCaptureTests.capture, "--format", HTTPCaptureTests.format, "--output", scratch + "/i.csv",
      "--report", report, "--quiet",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: report).sorted()
    #expect(
      files == [
        "README.md", "inspection.csv", "object-sizes.svg", "observed-hit-ratio.svg", "request-rate.svg",
        "reuse-distance.svg",
      ])
    #expect(
      try String(contentsOfFile: report + "/inspection.csv", encoding: .utf8)
        == String(contentsOfFile: scratch + "/i.csv", encoding: .utf8))
    // Every row of the terminal's HTTP table is a row of the Markdown one.
    let markdown = try String(contentsOfFile: report + "/README.md", encoding: .utf8)
    let text = outcome.stdout
    let table = text[text.range(of: "\nHTTP: ")!.upperBound...].split(separator: "\n").dropFirst()
      .prefix { !$0.hasPrefix("observed: ") }
    #expect(table.count > 20)
    for line in table {
      let cells = line.split(separator: " ", omittingEmptySubsequences: true)
      guard cells.count >= 3, let count = Int(cells[cells.count - 3]) else { continue }
      let name = cells.dropLast(3).joined(separator: " ")
      #expect(markdown.contains("|   \(name) | \(count) | \(cells[cells.count - 2]) % |"), "\(line)\n\(markdown)")
    }
    for chart in files where chart.hasSuffix(".svg") {
      #expect(markdown.contains("](\(chart))"), "\(chart)")
      let svg = try String(contentsOfFile: report + "/" + chart, encoding: .utf8)
      #expect(svg.hasPrefix("<svg") && svg.contains("<polyline"), "\(chart)")
    }
    // A trace without HTTP attributes, inspected into the same folder, leaves no HTTP chart behind.
    let again = try CLI.run(["inspect", MachineOutputTests.trace, "--report", report, "--quiet"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: report).sorted() == [
        "README.md", "inspection.csv", "object-sizes.svg", "reuse-distance.svg",
      ])
    // A folder holding a run's report is refused before anything is written.
    let run = try CLI.run([
      "run", "--trace", MachineOutputTests.trace, "--policies", "lru", "--sizes", "10", "--report", scratch + "/run",
      "--quiet",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let refused = try CLI.run(["inspect", MachineOutputTests.trace, "--report", scratch + "/run", "--quiet"])
    #expect(refused.status == 64 && refused.stderr.contains("holds a run report"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch + "/run/inspection.csv"))
    // And the reverse: a run's report into a folder holding an inspection is refused too.
    let reverse = try CLI.run([
      "run", "--trace", MachineOutputTests.trace, "--policies", "lru", "--sizes", "10", "--report", report, "--quiet",
    ])
    #expect(reverse.status == 64 && reverse.stderr.contains("holds an inspection"), "\(reverse.stderr)")
    #expect(!FileManager.default.fileExists(atPath: report + "/report.csv"))
  }

  @Test func recordsThatAreNotRequestsAreTalliedToo() throws {
    let log = """
      10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET http://A.example:8080/a.png HTTP/1.1" 200 2326 "-" "-"
      10.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET http://a.example/a.png HTTP/1.1" 304 0 "-" "-"
      10.0.0.2 - - [10/Oct/2000:13:55:39 -0700] "POST http://b.example/form HTTP/1.1" 201 12 "-" "-"
      10.0.0.2 - - [10/Oct/2000:13:55:40 -0700] "CONNECT c.example:443 HTTP/1.1" 200 0 "-" "-"
      10.0.0.3 - - [10/Oct/2000:13:56:42 -0700] "GET /b?q=1 HTTP/1.1" 404 153 "-" "-"

      """
    let scratch = FaultCases3OutputTests.Scratch()
    let path = scratch.file("access.log", log)
    let outcome = try CLI.run(["inspect", path, "--output", scratch.path + "/i.csv", "--quiet"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("HTTP: 3 requests, 1 invalidations"), "\(outcome.stdout)")
    let csv = try String(contentsOfFile: scratch.path + "/i.csv", encoding: .utf8)
    for row in [
      "http_method,GET,,,3", "http_method,POST,,,1", "http_method,CONNECT,,,1", "http_status,304,,,1",
      "http_status,404,,,1", "http_status,200,,,2", "http_host,a.example,,,2", "http_host,,,,1",
      "http_host,c.example,,,1",
      "http_host,b.example,,,1", "http_observed,upstream_hits,,,0",
    ] {
      #expect(csv.contains("\n" + row + "\n"), "\(row)\n\(csv)")
    }
    #expect(outcome.stdout.contains("no record says what a cache on the path did"), "\(outcome.stdout)")
    #expect(outcome.stdout.contains("request rate per 10 s"), "\(outcome.stdout)")
  }
}
