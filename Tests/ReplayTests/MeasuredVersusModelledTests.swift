import CacheCore
import Engine
import Foundation
import Replay
import Reports
import Stats
import TestSupport
import Testing
import Traces

/// The simulated engine, given the read cost `cachelab calibrate` measures on this machine,
/// predicts what the real file store measures on the same trace: the p50 and p90 of disk hits
/// agree within 25 % for three presets. Not timed: both figures come from this process, one
/// measured, one modelled from measurements taken around it. The p90 holds on a loaded
/// machine because the model draws each read around its line by the spread calibrate
/// measured under the same load, and charges a read straight after a write what such reads
/// cost in calibration; prints the median ratios it reached. `Scripts/test.sh` runs it alone
/// after the other suites, whose threads would preempt what it times.
@Suite(
  .serialized,
  .disabled(if: Paths.measurementsRunAlone, "runs alone after the suite (Scripts/test.sh)"))
struct MeasuredVersusModelledTests {
  static let presets = ["sdwebimage", "nuke", "zzdiskcache"]
  static let tolerance = 0.25
  /// Calibration and replay again while the median disagrees, up to this many times: a burst
  /// of load on one measurement moves it, a wrong model moves every attempt alike.
  static let attempts = 5
  /// The demo trace's objects run from a few bytes to 800 KiB.
  static let sizes: [Int64] = (0...10).map { 1024 << $0 }

  /// One preset's disk-hit percentiles, µs: measured on the file store and modelled.
  struct Comparison: CustomStringConvertible {
    var preset: String
    var measured: [Double]
    var modelled: [Double]
    var ratios: [Double] { zip(modelled, measured).map { $0 / max($1, 1) } }
    var description: String {
      "\(preset): measured p50 \(measured[0]) p90 \(measured[1]) µs, modelled \(modelled[0]) \(modelled[1]) µs"
    }
  }

  /// The disk-hit p50 and p90 of `preset` on the demo trace with `backend` and `latency`.
  static func diskHitPercentiles(
    _ preset: String, _ backend: DiskBackendKind, _ latency: LatencyModel
  ) throws -> [Double] {
    var configuration = try PresetSpec(parsing: preset).configuration
    configuration.diskBackend = backend
    configuration.latency = latency
    let run = try Replayer(
      RunConfiguration(
        tracePath: BackendEquivalenceTests.httpTrace, trace: try TraceSpec(parsing: "cachelab"), policies: [],
        capacities: [], engines: [LabeledEngine(.preset(preset), configuration: configuration)])
    ).run()
    let hits = try #require(run.caches.first?.stats.tiers).diskHit
    #expect(hits.totalCount > 100, "\(preset) has too few disk hits to compare")
    return [50.0, 90.0].map { Double(hits.valueAtPercentile($0)) }
  }

  /// Reads timed at `sizes` on a fresh store in `folder`.
  static func calibrateReads(_ folder: String, seed: UInt64) throws -> [LatencyCalibration.Point] {
    let probe = try FileStoreProbe(directory: folder)
    return try LatencyCalibration.measure(
      probe, sizes: sizes, repeats: 2, seed: seed, operations: [.read, .readAfterWrite]
    ).points
  }

  /// One attempt: calibrate, replay every preset on the file store, calibrate again; the
  /// simulated runs then use the read cost fitted to both calibrations.
  static func attempt(_ folder: String, _ index: Int) throws -> [Comparison] {
    var points = try calibrateReads("\(folder)/calibration-\(index)-before", seed: UInt64(index))
    var measured: [[Double]] = []
    for preset in presets {
      measured.append(try diskHitPercentiles(preset, .file(directory: "\(folder)/\(preset)-\(index)"), LatencyModel()))
    }
    points += try calibrateReads("\(folder)/calibration-\(index)-after", seed: UInt64(index) + 100)
    let fits = LatencyCalibration(points: points, measuredCold: false).fits
    var model = LatencyModel()
    model.diskRead = try #require(fits.first { $0.operation == .read }).cost
    model.diskReadAfterWrite = try #require(fits.first { $0.operation == .readAfterWrite }).cost
    return try zip(presets, measured).map { preset, measured in
      Comparison(preset: preset, measured: measured, modelled: try diskHitPercentiles(preset, .simulated, model))
    }
  }

  @Test func theCalibratedModelPredictsTheFileStoresDiskHitPercentiles() throws {
    let folder = Paths.temporaryDirectory("measured-versus-modelled").path
    var runs: [[Comparison]] = []
    var medians: [[Double]] = []
    for index in 1...Self.attempts {
      runs.append(try Self.attempt(folder, index))
      medians = Self.presets.indices.map { preset in
        (0..<2).map { percentile in
          SampleSummary(runs.map { $0[preset].ratios[percentile] }).percentile(50)
        }
      }
      if medians.joined().allSatisfy({ abs($0 - 1) <= Self.tolerance }) { break }
    }
    let figures = zip(Self.presets, medians).map { "\($0) \($1.map { Decimal.fixed($0, 2) }.joined(separator: "/"))" }
    print("MeasuredVersusModelled: \(runs.count) attempts; p50/p90 median ratios " + figures.joined(separator: ", "))
    for (preset, ratios) in zip(Self.presets, medians) {
      let detail = runs.map { $0.first { $0.preset == preset }!.description }.joined(separator: "; ")
      #expect(abs(ratios[0] - 1) <= Self.tolerance, "\(preset) p50 modelled/measured \(ratios[0]): \(detail)")
      #expect(abs(ratios[1] - 1) <= Self.tolerance, "\(preset) p90 modelled/measured \(ratios[1]): \(detail)")
    }
  }
}
