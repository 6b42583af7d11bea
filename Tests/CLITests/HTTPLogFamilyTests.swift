import Foundation
import Reports
import TestSupport
import Testing

/// One workload written in every log family CacheLab reads — NCSA common and combined, an
/// nginx `log_format`, CloudFront's 26- and 33-field W3C layouts, IIS's W3C log, Squid's
/// native log with and without `log_mime_hdrs` — is sniffed with no `--format` (but the nginx
/// one), replays through policies, presets and a custom `--expiry http` engine with every
/// request counted, and the families that say what their cache did give exactly those hits.
@Suite struct HTTPLogFamilyTests {
  /// The workload: 240 requests to 15 URLs, a second apart, the first request to each URL a
  /// miss and every later one a hit; every 17th a POST (an invalidation) and every 23rd a
  /// CONNECT or OPTIONS (skipped).
  struct Row {
    var second: Int
    var method: String
    var path: String
    var size: Int
    var hit: Bool
  }

  static let rows: [Row] = {
    var seen: Set<Int> = []
    return (0..<240).map { index in
      let object = (index * 7) % 15
      let method = index % 17 == 16 ? "POST" : index % 23 == 22 ? (index % 2 == 0 ? "OPTIONS" : "CONNECT") : "GET"
      let hit = method == "GET" && !seen.insert(object).inserted
      return Row(second: index, method: method, path: "/img/\(object).jpg", size: 2_000 + object * 100, hit: hit)
    }
  }()

  static let gets = rows.filter { $0.method == "GET" }
  static let hits = gets.filter(\.hit).count

  /// `HH:MM:SS` of a row's second on 2024-03-05 (UTC).
  static func clock(_ second: Int) -> String {
    String(format: "%02d:%02d:%02d", 10 + second / 3600, second / 60 % 60, second % 60)
  }

  static func target(_ row: Row) -> String { row.method == "CONNECT" ? "img.example.com:443" : row.path }

  static func common(_ row: Row, combined: Bool) -> String {
    "10.0.0.1 - - [05/Mar/2024:\(clock(row.second)) +0000] \"\(row.method) \(target(row)) HTTP/1.1\" 200 \(row.size)"
      + (combined ? " \"-\" \"Mozilla/5.0 (X11)\"" : "")
  }

  static let nginxFormat =
    "access-log:log-format='$remote_addr [$time_local] $host \"$request\" $status $body_bytes_sent \"$sent_http_cache_control\" $upstream_cache_status'"

  static func nginx(_ row: Row) -> String {
    "10.0.0.1 [05/Mar/2024:\(clock(row.second)) +0000] img.example.com \"\(row.method) \(target(row)) HTTP/1.1\" 200 \(row.size) \"max-age=86400\" \(row.hit ? "HIT" : "MISS")"
  }

  static let cloudFrontFields = [
    "date", "time", "x-edge-location", "sc-bytes", "c-ip", "cs-method", "cs(Host)", "cs-uri-stem", "sc-status",
    "cs(Referer)", "cs(User-Agent)", "cs-uri-query", "cs(Cookie)", "x-edge-result-type", "x-edge-request-id",
    "x-host-header", "cs-protocol", "cs-bytes", "time-taken", "x-forwarded-for", "ssl-protocol", "ssl-cipher",
    "x-edge-response-result-type", "cs-protocol-version", "fle-status", "fle-encrypted-fields", "c-port",
    "time-to-first-byte", "x-edge-detailed-result-type", "sc-content-type", "sc-content-len", "sc-range-start",
    "sc-range-end",
  ]

  static func cloudFront(_ row: Row, fields: Int) -> String {
    let result = row.hit ? "Hit" : "Miss"
    let values = [
      "2024-03-05", clock(row.second), "FRA2-C1", String(row.size + 300), "192.0.2.100", row.method,
      "d111111abcdef8.cloudfront.net", target(row), "200", "-", "Mozilla/5.0%20(X11)", "-", "-", result,
      "id\(row.second)", "img.example.com", "https", "120", "0.002", "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", result,
      "HTTP/2.0", "-", "-", "443", "0.001", result, "image/jpeg", String(row.size), "-", "-",
    ]
    return values.prefix(fields).joined(separator: "\t")
  }

  static func iis(_ row: Row) -> String {
    "2024-03-05 \(clock(row.second)) 10.0.0.9 \(row.method) \(target(row)) - 443 - 192.0.2.100 Mozilla/5.0+(X11) - 200 0 0 \(row.size) 15"
  }

  static func squid(_ row: Row, headers: Bool) -> String {
    let code = row.method == "CONNECT" ? "TCP_TUNNEL" : row.hit ? "TCP_MEM_HIT" : "TCP_MISS"
    let url = row.method == "CONNECT" ? "img.example.com:443" : "http://img.example.com" + row.path
    let line =
      "\(1_709_632_800 + row.second).250     12 10.0.0.1 \(code)/200 \(row.size + 250) \(row.method) \(url) - HIER_DIRECT/10.0.0.9 image/jpeg"
    guard headers else { return line }
    return line
      + #" [Host: img.example.com\r\n] [HTTP/1.1 200 OK\r\nCache-Control: max-age=86400\r\nContent-Length: \#(row.size)\r\n\r\n]"#
  }

  /// Each family: file name, text, `--format` (nil: sniffed), whether it says what a cache did.
  static let families: [(name: String, text: String, format: String?, observes: Bool)] = [
    ("common.access.log", rows.map { common($0, combined: false) }.joined(separator: "\n"), nil, false),
    ("combined.access.log", rows.map { common($0, combined: true) }.joined(separator: "\n"), nil, false),
    ("nginx.access.log", rows.map(nginx).joined(separator: "\n"), nginxFormat, true),
    (
      "E2EXAMPLE.2024-03-05-10.26",
      "#Version: 1.0\n#Fields: \(cloudFrontFields.prefix(26).joined(separator: " "))\n"
        + rows.map { cloudFront($0, fields: 26) }.joined(separator: "\n"), nil, true
    ),
    (
      "E2EXAMPLE.2024-03-05-10.33",
      "#Version: 1.0\n#Fields: \(cloudFrontFields.joined(separator: " "))\n"
        + rows.map { cloudFront($0, fields: 33) }.joined(separator: "\n"), nil, true
    ),
    (
      "u_ex240305.log",
      "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2024-03-05 10:00:00\n"
        + "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status sc-bytes time-taken\n"
        + rows.map(iis).joined(separator: "\n"), nil, false
    ),
    ("squid.log", rows.map { squid($0, headers: false) }.joined(separator: "\n"), nil, true),
    ("squid-mime.log", rows.map { squid($0, headers: true) }.joined(separator: "\n"), nil, true),
  ]

  @Test(arguments: families.indices) func familyReplaysThroughPoliciesPresetsAndAnEngine(family: Int) throws {
    let (name, text, format, observes) = Self.families[family]
    let scratch = FaultCases3OutputTests.Scratch()
    let trace = scratch.file(name, text + "\n")
    for (index, engines) in [
      ["--policies", "lru,sieve", "--sizes", "16KiB,1MiB"], ["--preset", "kingfisher,nuke,urlcache-linux"],
      ["--memory", "lru:64KiB", "--disk", "lru:1MiB", "--expiry", "http:shared"],
    ].enumerated() {
      let csv = scratch.path + "/\(index).csv"
      let outcome = try CLI.run(
        ["run", "--trace", trace] + (format.map { ["--format", $0] } ?? []) + engines + ["--output", csv])
      #expect(outcome.status == 0, "\(name) \(engines): \(outcome.stderr)")
      let posts = Self.rows.filter { $0.method == "POST" }.count
      #expect(
        outcome.stdout.contains(": \(Self.gets.count) requests + \(posts) put, delete"), "\(name): \(outcome.stdout)")
      let table = try ReportTable(contentsOf: csv)
      #expect(table.rows.count == (index == 2 ? 1 : index == 1 ? 3 : 4), "\(name) \(engines)")
      for row in table.rows {
        #expect(table.value(row, "observed_hits") == (observes ? String(Self.hits) : ""), "\(name) \(engines)")
      }
    }
  }
}
