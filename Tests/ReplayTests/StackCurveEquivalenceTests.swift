import CacheCore
import Foundation
import Gate
import Policies
import Replay
import Reports
import TestSupport
import Testing
import Traces

/// The one-pass LRU curve against one simulation per size: on every shared trace and the
/// repository's own, in byte and object mode, at many sizes (tiny, around every arena
/// threshold, around the largest object, repeated and out of order), every deterministic
/// report column is the same, and the run says where the pass ran and why it did not.
@Suite struct StackCurveEquivalenceTests {
  /// The shared traces, then the repository's.
  static let traces: [(path: String, format: String)] =
    SharedTraces.all.map { (Paths.sharedTrace($0.path), $0.format) }
    + [
      (Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path, "oracle-general"),
      (Paths.packageRoot.appendingPathComponent("Traces/http-demo.cachelab.csv").path, "cachelab"),
    ]

  /// Every registered policy the pass can stand in for.
  static let policies = BuiltInPolicies.policies.filter { $0.descriptor.lruStack != nil }.map(\.descriptor.name)

  static let cases: [(path: String, format: String, objectMode: Bool)] =
    traces.flatMap { [($0.path, $0.format, false), ($0.path, $0.format, true)] }

  /// Log-spaced fractions of the working set from the smallest that is a size of at least 2
  /// (24 of them, 8 on traces of more than 200,000 requests, to bound the simulations'
  /// time), then absolute sizes around the arena's thresholds, one repeated and all out of order.
  static func capacities(objectMode: Bool, summary: TraceSummary) throws -> [CapacitySpec] {
    let workingSet = Double(summary.workingSet(objectMode: objectMode))
    let smallest = max(0.0002, 2 / max(workingSet, 1))
    let count = summary.requests > 200_000 ? 8 : 24
    var sizes = try CapacitySpec.parseList("log:\(smallest):0.9999:\(count)", objectMode: objectMode)
    for size: Int64 in [65_537, 1, 7, 65_536, 4_096, 2, 65_535, 64, 3, 4_096] { sizes.append(.absolute(size)) }
    let largest = summary.largestGet
    if !objectMode {
      for size in [largest + 1, largest, largest - 1, 2 * largest] where size > 0 { sizes.append(.absolute(size)) }
    }
    return sizes
  }

  static func run(
    _ path: String, format: String, objectMode: Bool, capacities: [CapacitySpec], method: ReplayMethod,
    policies: String = "lru", configure: (inout RunConfiguration) throws -> Void = { _ in }
  ) throws -> RunResult {
    var configuration = RunConfiguration(
      tracePath: path, trace: try TraceSpec(parsing: format), policies: try PolicySpec.parseList(policies),
      capacities: capacities, ignoreSize: objectMode, verifyInvariants: true)
    configuration.method = method
    try configure(&configuration)
    return try Replayer(configuration).run()
  }

  /// Every column `regress` compares, per row, that differs between `a` and `b`.
  static func differences(_ a: RunResult, _ b: RunResult) -> [String] {
    let columns = ReportColumn.standard.filter { !RegressionCheck.timingColumns.contains($0.name) }
    let (left, right) = (ReportRow.rows([a]), ReportRow.rows([b]))
    guard left.count == right.count else { return ["\(left.count) rows vs \(right.count)"] }
    var found: [String] = []
    for (x, y) in zip(left, right) {
      for column in columns where column.value(of: x) != column.value(of: y) {
        found.append(
          "\(x.policyName) @ \(x.capacitySpec): \(column.name) \(column.value(of: x)) vs \(column.value(of: y))")
      }
    }
    return found
  }

  @Test(arguments: cases)
  func theStackPassEqualsSimulationAtEverySize(path: String, format: String, objectMode: Bool) throws {
    guard FileManager.default.fileExists(atPath: path) || Paths.isCI else {
      print("skipping: \(path) is missing")
      return
    }
    var summary = try TraceSummary.scan(try TraceSpec(parsing: format).open(path), batch: RequestBatch(capacity: 4096))
    if objectMode { summary.workingSetBytes = summary.uniqueObjects }
    let sizes = try Self.capacities(objectMode: objectMode, summary: summary)
    for policy in Self.policies {
      let simulated = try Self.run(
        path, format: format, objectMode: objectMode, capacities: sizes, method: .simulate,
        policies: policy)
      let automatic = try Self.run(
        path, format: format, objectMode: objectMode, capacities: sizes, method: .automatic,
        policies: policy)
      let differences = Self.differences(simulated, automatic)
      #expect(differences.isEmpty, "\(path) \(objectMode ? "object" : "byte") mode: \(differences.prefix(5))")
      let note = automatic.methodNote ?? ""
      // Where the trace keeps the stack property the pass must really run; where it does not,
      // the run must say so.
      let exactTrace = summary.putsAndDeletes == 0 && (objectMode || !summary.getSizesChange)
      if exactTrace {
        #expect(note.contains("by one stack-distance pass"), "\(path): \(note)")
        if !objectMode {
          #expect(note.contains("smaller than the largest object") == (summary.largestGet > 1), "\(path): \(note)")
        }
      } else {
        #expect(note.contains("\(policy) simulated per size"), "\(path): \(note)")
        #expect(throws: ReplayError.self) {
          try Self.run(
            path, format: format, objectMode: objectMode, capacities: sizes, method: .stack, policies: policy)
        }
      }
    }
  }

  /// Warm-up, windows, sampling and a shard on two traces: the same rows and window counts.
  @Test(arguments: [
    (SharedTraces.all[7].path, "oracle-general", false), ("lirs/sprite.trace", "txt", true),
  ])
  func optionsGiveTheSameRowsAndWindows(trace: String, format: String, objectMode: Bool) throws {
    guard Paths.sharedTraceAvailable(trace) else {
      print("skipping: ../shared/traces/\(trace) is missing")
      return
    }
    let path = Paths.sharedTrace(trace)
    let sizes = try CapacitySpec.parseList("log:0.01:0.9:12", objectMode: objectMode)
    let variants: [(String, (inout RunConfiguration) throws -> Void)] = [
      ("warm-up", { $0.warmup = .fraction(0.2) }),
      ("windows", { $0.window = try WindowSpec(parsing: "5000r") }),
      ("sample", { $0.slice = TraceSlice(sampleRate: 0.1) }),
      ("shard", { $0.shard = try Shard(parsing: "1/3") }),
    ]
    for (name, configure) in variants {
      let simulated = try Self.run(
        path, format: format, objectMode: objectMode, capacities: sizes, method: .simulate, configure: configure)
      let stacked = try Self.run(
        path, format: format, objectMode: objectMode, capacities: sizes, method: .stack, configure: configure)
      #expect(
        Self.differences(simulated, stacked).isEmpty, "\(name): \(Self.differences(simulated, stacked).prefix(3))")
      #expect(simulated.windows.map(\.hits) == stacked.windows.map(\.hits), "\(name)")
      #expect(
        stacked.methodNote?.contains("by one stack-distance pass") == true, "\(name): \(stacked.methodNote ?? "")")
    }
  }
}
