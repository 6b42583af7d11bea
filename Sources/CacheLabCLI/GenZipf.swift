import ArgumentParser
import CacheCore
import Traces
import Workloads

/// `cachelab gen zipf`: Zipf popularity, sizes from a distribution, Poisson arrivals.
struct GenZipf: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "zipf",
    abstract: "Write a seeded Zipf(alpha) trace over N objects.",
    discussion: """
      Popularity is sampled with GSL's alias method, sizes are fixed per object and drawn \
      from --sizes, arrivals are a Poisson process at --rate requests per second. The same \
      options always write the same file. oracle-general output carries exact next-access \
      indices (one backward pass at the end); CSV output is 'time,key,size'.

      Examples:
        cachelab gen zipf --objects 10000 --requests 80000 --alpha 0.9 --seed 2026 --output zipf.oracleGeneral.bin
        cachelab gen zipf --objects 1000 --requests 5000 --sizes fixed:4096 --output small.csv
      """)

  @Option(help: ArgumentHelp("Output file (written atomically).", valueName: "path"))
  var output: String

  @Option(help: "Number of distinct objects.")
  var objects: Int = 1_000_000

  @Option(help: "Number of requests.")
  var requests: Int64 = 1_000_000

  @Option(help: "Zipf exponent (0 = uniform).")
  var alpha: Double = 1.0

  @Option(help: "Random seed.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "Object sizes: fixed:N, uniform:min=A,max=B, lognormal:mu=M,sigma=S,min=A,max=B or pareto:shape=K,min=A,max=B.",
      valueName: "dist"))
  var sizes: String = SizeDistribution.standard.description

  @Option(help: "Mean request rate (requests per second of trace time).")
  var rate: Double = 1000

  @Option(
    help: ArgumentHelp("Output format; default csv for *.csv, else oracle-general.", valueName: "name"))
  var format: OutputFormat?

  @Flag(help: "Do not print the progress bar or the summary line.")
  var quiet = false

  func validate() throws {
    guard objects > 0, objects <= 1 << 26 else {
      throw ValidationError("--objects must be in 1...2^26 (67,108,864; the generator keeps about 40 B per object)")
    }
    guard requests > 0 else { throw ValidationError("--requests must be positive") }
    guard alpha >= 0, alpha.isFinite else { throw ValidationError("--alpha must be a non-negative number") }
    try GenLimits.checkSpan(requests: Int64(requests), rate: rate)
    _ = try CLIErrors.translating { try SizeDistribution(parsing: sizes) }
  }

  /// The formats `gen zipf` writes.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case oracleGeneral = "oracle-general"
    case csv
  }

  /// `--format`, else the output name's suffix.
  var outputFormat: OutputFormat {
    format ?? (output.lowercased().hasSuffix(".csv") ? .csv : .oracleGeneral)
  }

  func run() throws {
    try CLIErrors.translating {
      let workload = ZipfWorkload(
        objects: objects, requests: requests, alpha: alpha, seed: seed,
        sizes: try SizeDistribution(parsing: sizes), rate: rate)
      let writer: any TraceWriter =
        outputFormat == .csv
        ? try CSVTraceWriter(path: output) : try OracleGeneralWriter(path: output, computeNextAccess: true)
      let bar = ProgressBar(label: "generating", quiet: quiet)
      try workload.generate(into: writer) { done in bar.update(done, Int64(requests)) }
      bar.finish()
      try writer.commit()
      if !quiet {
        print("wrote \(output): \(requests) requests over \(objects) objects, zipf alpha \(alpha), seed \(seed)")
      }
    }
  }
}
