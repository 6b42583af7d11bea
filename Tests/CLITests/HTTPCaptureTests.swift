import Foundation
import Reports
import TestSupport
import Testing

/// The committed capture that real nginx made (Scripts/capture-http.sh; command in
/// Traces/README.md) replays through presets and a policy, and the observed
/// columns count exactly the lines nginx marked as served from its cache.
@Suite struct HTTPCaptureTests {
  static let capture = Paths.packageRoot.appendingPathComponent("Traces/captures/nginx-http.access.log").path
  /// The log_format Scripts/capture_http.py gives nginx.
  static let format =
    #"access-log:log-format='$msec $scheme $host "$request" $status $body_bytes_sent $request_time "$sent_http_cache_control" "$sent_http_etag" "$sent_http_last_modified" "$sent_http_content_type" $upstream_cache_status $upstream_response_time'"#

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
