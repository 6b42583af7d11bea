import CacheCore
import Replay
import Stats

/// The tables under a run's results when it has repeats or windows: the overall hit ratio of
/// each configuration beside the spread of its samples, labelled by what the samples are.
public enum StatisticsTable {
  /// A table's rows (header first) and the notes printed under it.
  public typealias Table = (rows: [[String]], notes: [String])

  /// The statistics tables `runs` (repeats of one configuration) call for: repeats, windows, or both.
  public static func tables(_ runs: [RunResult]) -> [Table] {
    let samples = ConfigurationSamples.collect(runs, metric: hitRatio)
    var tables: [Table] = []
    if runs.count > 1 { tables.append(repeats(samples)) }
    if let first = runs.first, let window = first.configuration.window {
      tables.append(windows(samples, first, window: window, ofSeed: runs.count > 1))
    }
    return tables
  }

  /// The tables as text, each followed by its notes.
  public static func render(_ runs: [RunResult]) -> String {
    tables(runs).map { TableReport.align($0.rows) + $0.notes.map { "  " + $0 + "\n" }.joined() }
      .joined(separator: "\n")
  }

  static let hitRatio = Metric.hitRatio

  /// Mean, sd and interval over the repeats; "deterministic: no variance" when they agree.
  static func repeats(_ samples: [ConfigurationSamples]) -> Table {
    var rows = [["configuration", "hit ratio", "repeats", "repeat mean", "repeat sd", "95 % CI"]]
    var deterministic = 0
    for configuration in samples {
      let values = configuration.repeats.map(\.value)
      var row = [configuration.label, hitRatio.format(configuration.overall), String(values.count)]
      if configuration.isDeterministic {
        deterministic += 1
        row += ["deterministic: no variance", "-", "-"]
      } else {
        let summary = SampleSummary(values)
        row += [
          hitRatio.format(summary.mean), hitRatio.format(summary.standardDeviation),
          hitRatio.formatRange(summary.lower, summary.upper),
        ]
      }
      rows.append(row)
    }
    var notes = [
      "hit ratio: hits / requests over every repeat; repeat mean and sd over the seeds, Student-t 95 % CI clipped to 0–100 %"
    ]
    if deterministic > 0 {
      notes.append(
        "deterministic: \(deterministic == samples.count ? "every configuration gives" : deterministic == 1 ? "1 configuration gives" : "\(deterministic) configurations give") the same result for every seed — no confidence interval applies"
      )
    }
    return (rows, notes)
  }

  /// Window mean, sd, interval, autocorrelation and batches of the first run.
  static func windows(_ samples: [ConfigurationSamples], _ run: RunResult, window: WindowSpec, ofSeed: Bool) -> Table {
    var rows = [
      [
        "configuration", "hit ratio", "windows", "window mean", "window sd", "95 % CI (window mean)", "lag-1",
        "batches",
      ]
    ]
    var notes: [String] = []
    var warned = false
    for configuration in samples {
      let overall = hitRatio.format(configuration.repeats.first?.value ?? 0)
      guard case .series(_, let numerators, let denominators, _) = configuration.windows, !numerators.isEmpty else {
        rows.append([configuration.label, overall, "0", "-", "-", "-", "-", "-"])
        continue
      }
      let ratio = WindowedRatio(numerators: numerators, denominators: denominators)
      let interval =
        ratio.windows > 1 ? hitRatio.formatRange(ratio.test.lower, ratio.test.upper) : "-"
      var batches = String(ratio.batches.count)
      if ratio.batches.windowsPerBatch > 1 { batches += " × \(ratio.batches.windowsPerBatch)" }
      if ratio.batches.isAutocorrelated {
        batches += " !"
        warned = true
      }
      rows.append([
        configuration.label, overall, String(ratio.windows), hitRatio.format(ratio.mean),
        hitRatio.format(ratio.windowStandardDeviation), interval,
        Decimal.fixed(ratio.batches.windowAutocorrelation, 2), batches,
      ])
    }
    notes.append(
      "hit ratio: hits / requests over the whole run\(ofSeed ? " of seed \(run.configuration.seed)" : ""); window mean: hits / requests over the \(window) windows (request-weighted), sd across windows"
    )
    notes.append(
      "95 % CI: Student t over batch means, clipped to 0–100 %; adjacent windows are merged (batches: count × windows each) while their lag-1 autocorrelation exceeds max(\(Decimal.fixed(BatchMeans.threshold, 1)), 1.645/√batches)"
    )
    if let last = run.windows.last, last.isPartial {
      notes.append(
        "the last of the \(run.windows.count) windows (\(last.requests) requests, less than half a window) is in the hit ratio but left out of the window statistics"
      )
    }
    if warned {
      notes.append(
        "!: still autocorrelated with too few windows to merge (fewer than \(2 * BatchMeans.minimumBatches)): the interval is likely too narrow; use smaller windows or --repeat"
      )
    }
    return (rows, notes)
  }
}
