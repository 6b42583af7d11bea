import ArgumentParser
import CacheCore
import Replay
import Reports

/// `cachelab sweep`: miss-ratio curves over many sizes for several policies, in one pass.
struct Sweep: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Miss-ratio curves: several policies over many cache sizes in one pass over the trace.",
    discussion: """
      Takes the options of 'run'. Sizes may be listed, log-spaced (log:1MiB:4GiB:12) or \
      fractions of the working set (log:0.001:0.5:10). Every (policy, size) cache replays the \
      trace in the same pass, spread over all cores. --shard i/N runs only part i of N of the \
      grid, so a large sweep can run as an array job; 'cachelab merge' joins the shard \
      reports into the report the unsharded sweep writes.

      Examples:
        cachelab sweep --trace Traces/zipf-demo.oracleGeneral.bin --policies lru,s3fifo --sizes log:0.001:0.5:12 --report sweep/
        cachelab sweep --trace big.oracleGeneral.bin --policies lru --sizes log:0.001:0.5:20 --shard 0/4 --output shard-0.csv
        cachelab sweep --trace big.oracleGeneral.zst --policies lru,sieve --sizes log:1GiB:1TiB:30 --approx
      """)

  @OptionGroup var options: ReplayOptions

  @Flag(
    help:
      "Approximate miss-ratio curves: spatial sampling at --sample (default 0.01) with scaled-back counts (see 'Sampling error' in docs/trace-formats.md)."
  )
  var approx = false

  func validate() throws {
    try options.requireTrace()
    guard options.policies != nil else { throw ValidationError("sweep needs --policies and --sizes") }
  }

  func run() throws {
    try CLIErrors.translating {
      var options = options
      if approx, options.sample == nil { options.sample = "0.01" }
      let results = try ReplayExecution.perform(options)
      guard !options.tableSuppressed, let first = results.first else { return }
      var text = Run.describe(first) + "\n" + TableReport.align(MissRatioCurve.matrix(results))
      if let best = MissRatioCurve.best(results) { text += best + "\n" }
      print(text + ReplayExecution.written(options), terminator: "")
    }
  }
}
