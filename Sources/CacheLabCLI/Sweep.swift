import ArgumentParser
import CacheCore
import Replay
import Reports

/// `cachelab sweep`: miss-ratio curves over many sizes for several policies, in one pass.
struct Sweep: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Miss-ratio curves: several policies over many cache sizes in one pass over the trace.",
    discussion: """
      Takes the options of 'run'. Sizes may be listed, log-spaced (log:1MiB:4GiB:12) or \
      fractions of the working set (log:0.001:0.5:10). Every (policy, size) cache replays the \
      trace in the same pass, spread over all cores. --shard i/N runs only part i of N of the \
      grid, so a large sweep can run as an array job; 'cachelab merge' joins the shard \
      reports into the report the unsharded sweep writes.
      """)

  @OptionGroup var options: ReplayOptions

  func validate() throws {
    try options.requireTrace()
    guard options.policies != nil else { throw ValidationError("sweep needs --policies and --sizes") }
  }

  func run() throws {
    try CLIErrors.translating {
      let results = try ReplayExecution.perform(options)
      guard !options.quiet, let first = results.first else { return }
      print(Run.describe(first) + "\n" + Self.curveTable(results) + ReplayExecution.written(options), terminator: "")
    }
  }

  /// Miss ratios as a matrix: one row per policy, one column per size (means over repeats).
  static func curveTable(_ results: [RunResult]) -> String {
    guard let first = results.first else { return "" }
    let objectMode = first.configuration.ignoreSize
    let curves = MissRatioCurve.curves(results)
    let sizes = Set(curves.flatMap { $0.points.map(\.capacity) }).sorted()
    var rows = [["miss ratio"] + sizes.map { objectMode ? "\($0) obj" : ByteCount.format($0) }]
    for curve in curves {
      let byCapacity = Dictionary(uniqueKeysWithValues: curve.points.map { ($0.capacity, $0.missRatio) })
      rows.append([curve.policy] + sizes.map { size in byCapacity[size].map { Decimal.fixed($0, 4) } ?? "-" })
    }
    return TableReport.align(rows)
  }
}
