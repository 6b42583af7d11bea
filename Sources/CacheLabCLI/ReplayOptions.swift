import ArgumentParser
import CacheCore
import Foundation
import Replay
import Reports
import Traces
import Workloads

/// The options shared by `run`, `sweep` and `compare`: what to replay and how.
struct ReplayOptions: ParsableArguments {
  @OptionGroup(title: "Trace and caches")
  var input: TraceOptions

  @Option(
    name: .customLong("num-req"),
    help: ArgumentHelp("Replay only the first N requests of the trace.", valueName: "N"))
  var requestLimit: Int64?

  @Option(
    help: ArgumentHelp(
      "Spatial sampling (SHARDS): keep the objects whose key hash falls in this fraction (0 < R <= 1) of the hash space, or (Nobj) at most N objects at the rate SHARDS' fixed-size variant settles on (found by a pre-pass); absolute cache sizes scale by the rate and hit ratios become estimates.",
      valueName: "R|Nobj"))
  var sample: String?

  @Option(
    name: .customLong("sample-floor"),
    help: ArgumentHelp(
      "With --sample: the fewest objects a scaled cache may hold. A cache that would hold fewer is simulated at the higher rate that gives it this many, in the same pass (its rate is the cache_sample_rate column; byte sizes count objects of the mean object size). 0 scales every cache by the sample rate.",
      valueName: "N"))
  var sampleFloor: Int = TraceSlice.defaultMinimumObjects

  /// `--sample` as a slice: a rate, or a fixed-size sample of N objects.
  func sampleSlice() throws -> TraceSlice {
    guard sampleFloor >= 0 else { throw ValidationError("--sample-floor must be 0 or more objects") }
    guard let sample else { return TraceSlice(requestLimit: requestLimit) }
    let text = sample.lowercased().filter { $0 != " " }
    for suffix in ["objects", "obj"] where text.hasSuffix(suffix) {
      guard let objects = Int(text.dropLast(suffix.count)), objects > 0 else { break }
      return TraceSlice(requestLimit: requestLimit, sampleObjects: objects, minimumObjects: sampleFloor)
    }
    guard let rate = Double(text), rate > 0, rate <= 1 else {
      throw ValidationError("--sample must be a rate in (0, 1] (e.g. 0.01) or a number of objects (e.g. 8192obj)")
    }
    return TraceSlice(requestLimit: requestLimit, sampleRate: rate, minimumObjects: sampleFloor)
  }

  @Option(
    help: ArgumentHelp(
      "Expire objects in policy caches as libCacheSim's --use-ttl does: 'trace' uses the trace's TTL column, a duration (1h, 3600s) is the lifetime of objects without one. An expired object is a miss, removed and inserted again; the 'expired' column counts them.",
      valueName: "trace|duration"))
  var ttl: String?

  @Option(
    help: ArgumentHelp(
      "How LRU curves are made: 'stack' measures every request's LRU stack distance in one pass, which gives the exact misses at every size at once; 'simulate' runs one cache per size; 'automatic' uses the pass for an LRU at 4 sizes or more wherever the pre-pass shows it exact (no puts or deletes; in byte mode no size change, and sizes at least the largest object). Rows are the same either way; the header says which method made each curve. \(ReplayMethod.valuesAndDefault(.automatic))",
      valueName: "method"))
  var method: ReplayMethod?

  @Option(
    help: ArgumentHelp(
      "Admission policies in front of every --policies cache, as NAME[:k=v,...] separated by commas like --policies ('none': no admission; see 'cachelab admissions'). Each policy runs once per admission policy at every size, in the same pass; the 'admission' column names it. Engine tiers take ',admission=NAME[:k=v]' after their size.",
      valueName: "list"))
  var admission: String?

  @OptionGroup(title: "Cache engines")
  var engine: EngineOptions

  @Option(
    help: ArgumentHelp(
      "Warm-up not counted in the results: a fraction of the requests (0.2) or trace time (3600s, 30m, 2h).",
      valueName: "F|Ns"))
  var warmup: String?

  @Option(
    help: ArgumentHelp(
      "Per-window hit ratios over windows of N counted requests (100000r) or of trace time (1h): request-weighted window mean, sd and 95 % confidence interval (batch means when autocorrelated).",
      valueName: "Nr|duration"))
  var window: String?

  @Option(
    help: ArgumentHelp(
      "With --window: write one row per (configuration, window) — bounds, requests, hits, hit ratios — to this CSV.",
      valueName: "file.csv"))
  var windowSeries: String?

  @Option(
    help: ArgumentHelp(
      "For a trace that records its own cache's hits and misses (the observed column, a log's cache status): write every request whose engine outcome differs to this CSV.",
      valueName: "file.csv"))
  var disagreements: String?

  @Option(help: "Seed for randomised policies (repeats use seed, seed+1, ...).")
  var seed: UInt64 = 0

  @Option(
    name: .customLong("repeat"),
    help: ArgumentHelp(
      "Replay N times with seeds seed, seed+1, ...; tables show the mean over seeds ± 95 % CI, or say the result is deterministic.",
      valueName: "N"))
  var repeats: Int = 1

  @Option(
    help: ArgumentHelp(
      "Run only part i of N of the (policy × size, engines) grid (0 <= i < N), or 'auto': the part a Slurm job array or Kubernetes Indexed Job assigns; merge the reports with 'cachelab merge'.",
      valueName: "i/N|auto"))
  var shard: String?

  @Option(help: ArgumentHelp("With --shard auto in a Kubernetes Indexed Job: the number of shards.", valueName: "N"))
  var shards: Int?

  @Option(
    help: ArgumentHelp(
      "Write the CSV report to this file (atomically; a .json name writes JSON; - writes the CSV to standard output instead of the table).",
      valueName: "file.csv"))
  var output: String?

  @Option(help: ArgumentHelp("Also write the report's rows as JSON to this file (atomically).", valueName: "file.json"))
  var json: String?

  var trace: String? { input.trace }
  var format: String? { input.format }
  var policies: String? { input.policies }
  var sizes: String? { input.sizes }
  var ignoreSize: Bool { input.ignoreSize }

  /// Whether the table is left out: `--quiet`, or the CSV goes to standard output.
  var tableSuppressed: Bool { quiet || output == "-" }

  @Option(
    help: ArgumentHelp(
      "Also write a Markdown summary and SVG charts (and the CSV) into this directory.", valueName: "dir"))
  var report: String?

  @Flag(help: "Replay the caches on one thread instead of all cores.")
  var serial = false

  @Flag(help: "Run every policy's invariant self-check at the end.")
  var verify = false

  @Option(
    help: ArgumentHelp(
      "A study file (TOML): [[trace]] tables (path, format, ignore-size, warmup) and a [run] table whose keys are these options' names; command-line options override it.",
      valueName: "study.toml"))
  var config: String?

  @Flag(help: "Do not print the table or the progress bar.")
  var quiet = false

  /// The study file this invocation was expanded from (set by ``StudyFile``, never typed).
  @Option(name: .customLong("study-file"), help: .private)
  var studyFile: String?

  /// What the replay reads and writes: trace and study file in; `--output`, `--json`,
  /// `--window-series` and every file of `--report` out.
  func paths() -> PathCheck {
    var paths = PathCheck()
    paths.read("--trace", trace.map { format == nil ? TraceSpec.shorthand($0).path : $0 })
    paths.read("--config", studyFile)
    for file in engine.latency.profileFiles { paths.read("--latency-profile", file) }
    paths.write("--output", output)
    paths.write("--json", json)
    paths.write("--window-series", windowSeries)
    paths.write("--disagreements", disagreements)
    paths.writeFolder("--report", report, files: ReportDirectory.ownedFiles)
    return paths
  }

  func validate() throws {
    // run and sweep expand --config before parsing; anywhere else it would be ignored.
    guard config == nil else { throw ValidationError("--config works with run and sweep") }
    guard (1...10_000).contains(repeats) else { throw ValidationError("--repeat must be in 1...10000") }
    if let requestLimit, requestLimit <= 0 { throw ValidationError("--num-req must be positive") }
    _ = try sampleSlice()
    for (name, value) in [
      ("--output", output), ("--json", json), ("--report", report), ("--window-series", windowSeries),
      ("--disagreements", disagreements),
    ]
    where value?.isEmpty == true {
      throw ValidationError("\(name) must not be empty")
    }
    if windowSeries != nil, window == nil {
      throw ValidationError("--window-series needs --window (e.g. --window 100000r or --window 1h)")
    }
    try paths().check()
    if let report, InspectReport.holdsAnInspection(report) {
      throw ValidationError(
        "--report \(report) holds an inspection (inspection.csv): a run report would mix with it; choose another folder"
      )
    }
    if trace != nil { _ = try CLIErrors.translating { try configurations() } }
  }

  /// `--shard i/N`, or with `--shard auto` the one the cluster scheduler assigned.
  private func resolvedShard() throws -> Shard? {
    guard let shard else {
      guard shards == nil else { throw ConfigurationError(.invalidValue, "--shards goes with --shard auto") }
      return nil
    }
    guard shard == "auto" else { return try Shard(parsing: shard) }
    return try Shard.assigned(by: ProcessInfo.processInfo.environment, count: shards)
  }

  /// Fails as a missing option does when there is no `--trace` (run and sweep need one).
  func requireTrace() throws {
    guard trace != nil else { throw ValidationError("Missing expected argument '--trace <path>'") }
  }

  /// One configuration per repeat (seeds seed, seed+1, ...).
  func configurations() throws -> [RunConfiguration] {
    let base = try configuration()
    if base.tracePath == "-" {
      var second: String?
      if base.slice.sampleObjects != nil { second = "--sample Nobj needs a pre-pass to find the sampling rate" }
      if repeats > 1 { second = "--repeat \(repeats) replays it \(repeats) times" }
      if let second {
        throw ConfigurationError(
          .invalidValue, "standard input can be read only once, but \(second); save the trace to a file first")
      }
    }
    return (0..<repeats).map { offset in
      var configuration = base
      configuration.seed = seed &+ UInt64(offset)
      return configuration
    }
  }

  private func configuration() throws -> RunConfiguration {
    guard let given = trace else {
      throw ConfigurationError(.invalidValue, "Missing expected argument '--trace <path>'")
    }
    let (shortFormat, trace) = format == nil ? TraceSpec.shorthand(given) : (nil, given)
    let format = format ?? shortFormat
    let traceSpec: TraceSpec
    if SyntheticTraceSpec.matches(trace) {
      let synthetic = try SyntheticTraceSpec(parsing: trace)
      guard format == nil || format == synthetic.format else {
        throw ConfigurationError(.invalidValue, "a synthetic trace is generated as \(synthetic.format); drop --format")
      }
      traceSpec = try TraceSpec(parsing: synthetic.format)
    } else {
      traceSpec = try TraceSpec(format: format, inferringFrom: trace)
    }
    guard (policies == nil) == (sizes == nil) else {
      throw ConfigurationError(.invalidValue, "--policies and --sizes go together")
    }
    let engines = try engine.engines()
    if admission != nil, policies == nil {
      throw ConfigurationError(.invalidValue, "--admission applies to --policies caches; give tiers ',admission=NAME'")
    }
    let admissions = try admission.map { try AdmissionSpec.parseList($0) } ?? [nil]
    let parsedPolicies = try (policies.map { try PolicySpec.parseList($0) } ?? []).flatMap { policy in
      admissions.map { admission in
        var spec = policy
        spec.admission = admission
        return spec
      }
    }
    let policyLabels = parsedPolicies.map { "\($0)" + ($0.admission.map { "+\($0)" } ?? "") }
    for labels in [policyLabels, engines.map(\.label)] {
      var seen: Set<String> = []
      for label in labels where !seen.insert(label).inserted {
        throw ConfigurationError(.invalidValue, "'\(label)' is given twice; list each policy or preset once")
      }
    }
    if sample != nil, !engines.isEmpty {
      throw ConfigurationError(
        .invalidValue,
        "--sample applies to --policies caches; engines (presets, tiers) cannot be scaled from a sample: run them without --sample"
      )
    }
    guard policies != nil || !engines.isEmpty else {
      throw ConfigurationError(.invalidValue, "give --policies with --sizes, or --preset, or --memory/--disk tiers")
    }
    let capacities = try sizes.map { try CapacitySpec.parseList($0, objectMode: ignoreSize) } ?? []
    for (index, capacity) in capacities.enumerated() where capacities[..<index].contains(capacity) {
      throw ConfigurationError(.invalidValue, "cache size '\(capacity)' is given twice; list each size once")
    }
    var configuration = RunConfiguration(
      tracePath: trace, trace: traceSpec, policies: parsedPolicies,
      capacities: capacities, engines: engines,
      ignoreSize: ignoreSize, warmup: try warmup.map { try WarmupSpec(parsing: $0) } ?? .none, seed: seed,
      parallel: !serial, verifyInvariants: verify, window: try window.map { try WindowSpec(parsing: $0) },
      shard: try resolvedShard())
    configuration.slice = try sampleSlice()
    configuration.timeToLive = try ttl.map { try TimeToLive(parsing: $0) }
    configuration.method = method ?? .automatic
    if configuration.timeToLive != nil, parsedPolicies.isEmpty {
      throw ConfigurationError(
        .invalidValue, "--ttl applies to --policies caches; presets and tiers follow their own expiry rules")
    }
    return configuration
  }
}
