import ArgumentParser
import CacheCore
import Replay
import Reports

/// `cachelab run`: one pass over a trace drives every (policy, size) cache and engine.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Replay a trace through several policies and cache sizes in one pass.",
    discussion: """
      Prints a table and, with --output, writes a CSV report (atomically). Policies are \
      'name' or 'name:key=value,...' (see 'cachelab policies'); sizes are bytes (512, \
      64KiB, 1.5GiB) or fractions of the working set (0.1, 10%), which cost one extra pass \
      over the trace. Objects larger than a cache are never inserted; a hit does not change \
      an object's stored size (libCacheSim semantics). Whole cache engines — library presets \
      (--preset) or custom memory and disk tiers (--memory, --disk) with expiry and \
      revalidation — run in the same pass; they need a trace with HTTP attributes for expiry \
      (--format cachelab). --repeat adds the mean over seeds with its 95 % confidence interval \
      (or says the configuration is deterministic); --window adds the request-weighted window \
      mean, sd and interval (batch means when windows are autocorrelated) and --window-series \
      writes every window; --report DIR writes a Markdown summary with SVG charts.

      Examples:
        cachelab run --trace Traces/zipf-demo.oracleGeneral.bin --policies lru,sieve --sizes 0.01,0.1
        cachelab run --trace Traces/http-demo.cachelab.csv --preset sdwebimage,kingfisher --output presets.csv
        cachelab run --config Examples/study.toml --sizes 0.05
      """)

  @OptionGroup var options: ReplayOptions

  func validate() throws { try options.requireTrace() }

  func run() throws {
    try CLIErrors.translating {
      let results = try ReplayExecution.perform(options)
      guard !options.tableSuppressed, let first = results.first else { return }
      var text = Self.describe(first) + "\n" + TableReport.render(first) + Self.observed(first)
      if first.caches.allSatisfy({ $0.requests == 0 }) {
        text +=
          "no requests counted (the warm-up covers the whole trace, or it holds none): there is no hit ratio to report\n"
      }
      if results.count > 1 || first.configuration.window != nil {
        text += "\n" + StatisticsTable.render(results)
      }
      print(text + ReplayExecution.written(options), terminator: "")
    }
  }

  /// A line under the table with what the trace says the real caches did; empty when it
  /// states no outcome.
  static func observed(_ result: RunResult) -> String {
    let observed = result.observed
    guard observed.hasOutcomes else { return "" }
    var parts: [String] = []
    if let ratio = observed.upstreamHitRatio {
      let stated = observed.upstreamHits + observed.upstreamMisses
      parts.append(
        "the trace's own cache served \(Decimal.fixed(ratio * 100, 2)) % (\(observed.upstreamHits) of the \(stated) requests whose record says)"
      )
    }
    if observed.clientHits > 0 { parts.append("the recording client's cache answered \(observed.clientHits)") }
    return "observed: " + parts.joined(separator: "; ") + "\n" + agreement(result)
  }

  /// One line per engine with the share of requests whose outcome agrees with the record's.
  static func agreement(_ result: RunResult) -> String {
    result.engines.compactMap { engine in
      let stats = engine.stats
      let compared = stats.observedAgreements + stats.observedDisagreements
      guard compared > 0 else { return nil }
      let share = Decimal.fixed(Double(stats.observedAgreements) * 100 / Double(compared), 2)
      return
        "  \(engine.label) agrees on \(share) % (\(stats.observedAgreements) of \(compared) requests, one by one)\n"
    }.joined()
  }

  /// One line naming the trace and its totals.
  static func describe(_ result: RunResult) -> String {
    let configuration = result.configuration
    var line =
      "\(configuration.tracePath) (\(configuration.trace)\(configuration.trace.note.map { ", " + $0 } ?? "")): "
      + "\(result.replayedRequests - result.otherRows) requests"
    if result.otherRows > 0 { line += " + \(result.otherRows) put, delete, event and origin rows" }
    if let summary = result.summary {
      line += ", \(summary.uniqueObjects) objects"
      if !configuration.ignoreSize { line += ", working set \(ByteCount.format(summary.workingSetBytes))" }
    }
    if configuration.slice.sampleRate < 1 {
      line += " in the sample (rate \(configuration.slice.sampleRate); the rows scale counts back up)"
    }
    if result.warmupRequests > 0 { line += ", \(result.warmupRequests) warm-up" }
    line += ", \(configuration.ignoreSize ? "object" : "byte") mode"
    if let shard = configuration.shard { line += ", shard \(shard)" }
    line += ", \(Decimal.fixed(result.wallSeconds, 2)) s"
    if let notes = result.traceNotes { line += "\n  read: " + notes }
    if let method = result.methodNote { line += "\n  method: " + method }
    return line
  }
}
