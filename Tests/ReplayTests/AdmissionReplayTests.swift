import CacheCore
import Engine
import Gate
import Policies
import Replay
import Reports
import TestSupport
import Testing
import Traces

/// `--admission` through the replayer and the reports: one row per policy × admission × size
/// in one pass, the `admission` and `declined` columns, and a report that `regress` can
/// rebuild with the same admission policies.
@Suite struct AdmissionReplayTests {
  static func run() throws -> (RunResult, [PolicySpec]) {
    let path = Paths.temporaryFile(
      "a.oracleGeneral.bin",
      bytes: SyntheticTraces.oracleGeneral(SyntheticTraces.requests(count: 4000, objects: 400, sizes: 10...1000)))
    let admissions = try AdmissionSpec.parseList("none,bloom-filter,size:threshold=500")
    let policies = try PolicySpec.parseList("lru,sieve").flatMap { policy in
      admissions.map { admission in
        var spec = policy
        spec.admission = admission
        return spec
      }
    }
    let result = try Replayer(
      RunConfiguration(
        tracePath: path, trace: TraceSpec(parsing: "oracle-general"), policies: policies,
        capacities: CapacitySpec.parseList("0.1,0.5", objectMode: false))
    ).run()
    return (result, policies)
  }

  @Test func rowsAndColumnsNameTheAdmissionPolicy() throws {
    let (result, _) = try Self.run()
    #expect(result.caches.count == 12)
    let table = try ReportTable(path: "a.csv", text: CSVReport.render([result]))
    let admission = try table.column("admission")
    let declined = try table.column("declined")
    #expect(
      table.rows.map { $0[admission] }.prefix(6) == [
        "", "", "bloom-filter", "bloom-filter", "size:threshold=500", "size:threshold=500",
      ])
    #expect(table.rows[0][declined] == "")
    for (row, cache) in zip(table.rows, result.caches) where cache.policy?.admission != nil {
      #expect(row[declined] == String(cache.counters.declined))
      #expect(cache.counters.declined > 0)
      #expect(cache.counters.rejected >= cache.counters.declined)
    }
    // The size rule refuses every object of 500 bytes or more, so all their requests miss.
    let plain = result.caches[1]
    let sized = result.caches[5]
    #expect(sized.counters.missBytes > plain.counters.missBytes || sized.counters.misses != plain.counters.misses)
    let labels = result.caches.map { $0.label }
    #expect(labels.contains("sieve+bloom-filter"))
    #expect(Set(labels).count == 6)
  }

  /// With spatial sampling, `declined` is scaled back like the misses: an admission policy
  /// that admits nothing declines exactly every (scaled) miss.
  @Test func declinedIsScaledLikeTheMissesWhenSampled() throws {
    let path = Paths.temporaryFile(
      "s.oracleGeneral.bin",
      bytes: SyntheticTraces.oracleGeneral(SyntheticTraces.requests(count: 20000, objects: 2000, sizes: 10...1000)))
    var configuration = RunConfiguration(
      tracePath: path, trace: try TraceSpec(parsing: "oracle-general"),
      policies: [try PolicySpec(parsing: "lru", admission: AdmissionSpec(parsing: "size:threshold=1"))],
      capacities: try CapacitySpec.parseList("0.5", objectMode: false))
    configuration.slice = TraceSlice(sampleRate: 0.5, minimumObjects: 0)
    let cache = try Replayer(configuration).run().caches[0]
    #expect(cache.sampleRate == 0.5)
    #expect(cache.counters.declined == cache.counters.misses)
    #expect(cache.counters.misses > 15000)
  }

  @Test func regressRebuildsTheAdmissionPolicies() throws {
    let (result, policies) = try Self.run()
    let table = try ReportTable(path: "a.csv", text: CSVReport.render([result]))
    let runs = try ReportReplay.runs(table)
    #expect(runs.count == 1)
    let rebuilt = runs[0].configuration.policies
    #expect(rebuilt.map(\.label) == policies.map(\.label))
    let again = try Replayer(runs[0].configuration).run()
    #expect(again.caches.map(\.counters) == result.caches.map(\.counters))
  }
}
