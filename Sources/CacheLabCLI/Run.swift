import ArgumentParser
import CacheCore
import Policies
import Replay
import Reports
import Traces

/// `cachelab run`: one pass over a trace drives every (policy, size) cache.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a trace through several policies and cache sizes in one pass.",
    discussion: """
      Prints a table and, with --output, writes a CSV report (atomically). Policies are \
      'name' or 'name:key=value,...' (see 'cachelab policies'); sizes are bytes (512, \
      64KiB, 1.5GiB) or fractions of the working set (0.1, 10%), which cost one extra pass \
      over the trace. Objects larger than a cache are never inserted; a hit does not change \
      an object's stored size (libCacheSim semantics). Whole cache engines — library presets \
      (--preset) or custom memory and disk tiers (--memory, --disk) with expiry and \
      revalidation — run in the same pass; they need a trace with HTTP attributes for expiry \
      (--format cachelab).
      """)

  @Option(help: ArgumentHelp("The trace file.", valueName: "path"))
  var trace: String

  @Option(
    help: ArgumentHelp(
      "Trace format, optionally with parameters (e.g. csv:key-col=2); inferred from the file name when omitted. One of: \(TraceFormat.all.map(\.name).joined(separator: ", ")).",
      valueName: "name[:k=v,...]"))
  var format: String?

  @Option(help: ArgumentHelp("Comma-separated policies, e.g. lru,fifo,clock:bits=2,sieve.", valueName: "list"))
  var policies: String?

  @Option(
    help: ArgumentHelp(
      "Comma-separated cache sizes: 512, 64KiB, 1.5GiB, or fractions of the working set such as 0.1.", valueName: "list"
    ))
  var sizes: String?

  @OptionGroup(title: "Cache engines")
  var engine: EngineOptions

  @Flag(help: "Object mode: treat every object as size 1; sizes count objects.")
  var ignoreSize = false

  @Option(
    help: ArgumentHelp(
      "Warm-up not counted in the results: a fraction of the requests (0.2) or trace time (3600s, 30m, 2h).",
      valueName: "F|Ns"))
  var warmup: String?

  @Option(help: ArgumentHelp("Write the CSV report to this file (atomically).", valueName: "file.csv"))
  var output: String?

  @Option(help: "Seed for randomised policies.")
  var seed: UInt64 = 0

  @Flag(help: "Replay the caches on one thread instead of all cores.")
  var serial = false

  @Flag(help: "Run every policy's invariant self-check at the end.")
  var verify = false

  @Flag(help: "Do not print the table.")
  var quiet = false

  func validate() throws {
    _ = try CLIErrors.translating { try makeConfiguration() }
  }

  func run() throws {
    try CLIErrors.translating {
      let configuration = try makeConfiguration()
      let report = try output.map { path in try AtomicFileWriter(path: path) }
      let result = try Replayer(configuration).run()
      if !quiet { print(Self.describe(result) + "\n" + TableReport.render(result), terminator: "") }
      if let report {
        try report.write(CSVReport.render([result]))
        try report.commit()
        if !quiet { print("wrote \(report.path)") }
      }
    }
  }

  func makeConfiguration() throws -> RunConfiguration {
    let traceSpec: TraceSpec
    if let format {
      traceSpec = try TraceSpec(parsing: format)
    } else if let inferred = TraceFormat.inferred(from: trace) {
      traceSpec = TraceSpec(inferred)
    } else {
      throw ConfigurationError(
        .invalidValue,
        "cannot tell the format of '\(trace)' from its name; pass --format (one of: \(TraceFormat.all.map(\.name).joined(separator: ", ")))"
      )
    }
    guard (policies == nil) == (sizes == nil) else {
      throw ConfigurationError(.invalidValue, "--policies and --sizes go together")
    }
    let engines = try engine.engines()
    guard policies != nil || !engines.isEmpty else {
      throw ConfigurationError(.invalidValue, "give --policies with --sizes, or --preset, or --memory/--disk tiers")
    }
    return RunConfiguration(
      tracePath: trace, trace: traceSpec, policies: try policies.map { try PolicySpec.parseList($0) } ?? [],
      capacities: try sizes.map { try CapacitySpec.parseList($0, objectMode: ignoreSize) } ?? [], engines: engines,
      ignoreSize: ignoreSize,
      warmup: try warmup.map { try WarmupSpec(parsing: $0) } ?? .none, seed: seed, parallel: !serial,
      verifyInvariants: verify)
  }

  /// One line naming the trace and its totals.
  static func describe(_ result: RunResult) -> String {
    let configuration = result.configuration
    var line = "\(configuration.tracePath) (\(configuration.trace)): \(result.replayedRequests) requests"
    if let summary = result.summary {
      line += ", \(summary.uniqueObjects) objects"
      if !configuration.ignoreSize { line += ", working set \(ByteCount.format(summary.workingSetBytes))" }
    }
    if result.warmupRequests > 0 { line += ", \(result.warmupRequests) warm-up" }
    line += ", \(configuration.ignoreSize ? "object" : "byte") mode"
    line += ", \(Double(Int(result.wallSeconds * 100)) / 100) s"
    return line
  }
}
