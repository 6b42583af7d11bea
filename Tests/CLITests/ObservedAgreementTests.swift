import Foundation
import TestSupport
import Testing

/// Per-request agreement with the trace's own cache: the run prints it per engine, the report
/// carries it, and `--disagreements` lists every request where the engine differs.
@Suite struct ObservedAgreementTests {
  /// What nginx 1.22.1 logged for these requests: `a` expires after its max-age (EXPIRED), `b`
  /// carries Set-Cookie (never stored), `c` is no-store.
  static let trace = """
    time,key,size,op,status,cache_control,expires,date,last_modified,etag,vary,authorization,set_cookie,version,observed
    1000.3,http://x.test/a,100,get,200,max-age=2,,1000,,"v1",,,,1,miss
    1001.3,http://x.test/a,100,get,200,max-age=2,,1001,,"v1",,,,1,hit
    1002.3,http://x.test/a,100,get,200,max-age=2,,1002,,"v1",,,,1,hit
    1003.3,http://x.test/a,100,get,200,max-age=2,,1003,,"v1",,,,1,miss
    1003.4,http://x.test/b,100,get,200,max-age=5,,1003,,,,,1,1,miss
    1004.4,http://x.test/b,100,get,200,max-age=5,,1004,,,,,1,1,miss
    1004.5,http://x.test/c,100,get,200,no-store,,1004,,,*,,,1,miss
    1005.5,http://x.test/c,100,get,200,no-store,,1004,,,*,,,1,miss

    """

  @Test func eachEngineIsComparedRequestByRequest() throws {
    let scratch = FaultCases3OutputTests.Scratch()
    let trace = scratch.file("nginx.cachelab.csv", Self.trace)
    let report = scratch.path + "/report.csv"
    let listed = scratch.path + "/disagreements.csv"
    let outcome = try CLI.run([
      "run", "--trace", trace, "--format", "cachelab", "--preset", "nginx,squid,varnish", "--output", report,
      "--disagreements", listed,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains("preset:nginx agrees on 100.00 % (8 of 8 requests, one by one)"), "\(outcome.stdout)")
    // Squid stores stale and Set-Cookie responses: `a` is revalidated (304), `b` is a hit.
    #expect(outcome.stdout.contains("preset:squid agrees on 75.00 % (6 of 8 requests, one by one)"))
    // Varnish serves `a` within its 10 s grace.
    #expect(outcome.stdout.contains("preset:varnish agrees on 87.50 % (7 of 8 requests, one by one)"))
    let rows = try String(contentsOfFile: listed, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(
      rows == [
        "configuration,seed,time,key,observed,simulated",
        "preset:squid,0,1003.300000,14bcc77305c04382,miss,hit",
        "preset:squid,0,1004.400000,5dff39910c5a2027,miss,hit",
        "preset:varnish,0,1003.300000,14bcc77305c04382,miss,hit",
      ])
    // The agreement columns come last (older reports stay a prefix); earlier cells may hold quoted commas.
    let csv = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).suffix(2).joined(separator: " ")
    }
    #expect(csv == ["observed_compared observed_agreement", "8 1.000000", "8 0.750000", "8 0.875000"])
  }

  @Test func disagreementsMayNotReplaceTheTrace() throws {
    let scratch = FaultCases3OutputTests.Scratch()
    let trace = scratch.file("nginx.cachelab.csv", Self.trace)
    let outcome = try CLI.run([
      "run", "--trace", trace, "--format", "cachelab", "--preset", "nginx", "--disagreements", trace,
    ])
    #expect(outcome.status == 64, "\(outcome.stdout)")
    #expect(try String(contentsOfFile: trace, encoding: .utf8) == Self.trace)
  }
}
