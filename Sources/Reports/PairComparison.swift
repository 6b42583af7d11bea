import CacheCore
import Stats

/// One candidate configuration against its baseline on one metric, with the test their
/// samples allow: a paired t-test (and Wilcoxon's signed-rank test) when the samples pair up —
/// windows of the same trace and window spec, or repeats on the same synthetic traces — Welch's
/// t-test for unpaired samples, the exact difference when both are deterministic, and no test
/// when a single run of a randomised policy gives nothing to test. O(samples log samples).
public struct PairComparison: Sendable {
  /// The test behind the line.
  public enum Test: String, Sendable {
    case pairedT = "paired-t"
    case welch
    /// No sampling: the difference is exact for this trace (and seed).
    case exact
    /// Nothing to test (a single run of a randomised configuration).
    case none
  }

  /// What the samples are.
  public enum Samples: String, Sendable {
    case repeats, windows, runs
  }

  public let baseline: ConfigurationSamples
  public let candidate: ConfigurationSamples
  public let test: Test
  public let samples: Samples
  /// Sample counts the two means use (batches for windows).
  public let countBaseline: Int
  public let countCandidate: Int
  /// Each configuration's sample mean and the half-width of its 95 % interval.
  public let meanBaseline: Double
  public let halfWidthBaseline: Double
  public let meanCandidate: Double
  public let halfWidthCandidate: Double
  /// Candidate minus baseline: the mean difference of the samples, or the exact overall difference.
  public let difference: Double
  /// Half-width of the difference's 95 % interval (0 without a test).
  public let halfWidth: Double
  public let t: Double?
  public let degreesOfFreedom: Double?
  /// Two-sided p-value of the t-test (nil without a test).
  public let pValue: Double?
  /// Pairs a paired test used.
  public let pairs: Int?
  /// The signed-rank test on the same pairs.
  public let wilcoxon: WilcoxonSignedRankTest?
  /// What a reader must know about this line (batching, left-out windows, determinism).
  public let notes: [String]

  /// candidate.overall − baseline.overall.
  public var overallDifference: Double { candidate.overall - baseline.overall }

  /// Compares `candidate` against `baseline`.
  public init(_ baseline: ConfigurationSamples, _ candidate: ConfigurationSamples) {
    let a = baseline
    let b = candidate
    if a.varies || b.varies, let constant = Self.unpairedRepeats(a, b) {
      if a.isSynthetic, b.isSynthetic, a.trace == b.trace, a.repeats.map(\.seed) == b.repeats.map(\.seed) {
        self = Self.pairedRepeats(a, b)
      } else {
        self = Self.welch(a, b, constant: constant)
      }
      return
    }
    if let paired = Self.pairedWindows(a, b) {
      self = paired
      return
    }
    if let summaryA = Self.windowSummary(a), let summaryB = Self.windowSummary(b) {
      let test = WelchTest(summaryA, summaryB)
      self.init(
        a, b, test: .welch, samples: .windows, summaries: (summaryA, summaryB), difference: test.difference,
        halfWidth: test.halfWidth, t: test.t, df: test.degreesOfFreedom, p: test.pValue, pairs: nil,
        wilcoxon: nil,
        notes: [
          a.windows?.spec == b.windows?.spec && a.trace == b.trace && a.windowNumbers != b.windowNumbers
            ? "\(a.windowNumbers?.count ?? 0) and \(b.windowNumbers?.count ?? 0) windows have a value (a tier answered nothing in the others): unpaired"
            : "windows of different traces or window specs: unpaired"
        ])
      return
    }
    let deterministic = Self.isConstant(a) && Self.isConstant(b)
    let constant = { (samples: ConfigurationSamples) in
      SampleSummary(count: samples.repeats.count, mean: samples.overall, standardDeviation: 0)
    }
    self.init(
      a, b, test: deterministic ? .exact : .none, samples: a.repeats.count > 1 ? .repeats : .runs,
      summaries: (constant(a), constant(b)), difference: b.overall - a.overall, halfWidth: 0, t: nil, df: nil,
      p: nil, pairs: nil, wilcoxon: nil,
      notes: deterministic
        ? [] : ["one run of a randomised configuration or synthetic trace: nothing to test (add --repeat N)"])
  }

  private init(
    _ a: ConfigurationSamples, _ b: ConfigurationSamples, test: Test, samples: Samples,
    summaries: (SampleSummary, SampleSummary), difference: Double, halfWidth: Double, t: Double?, df: Double?,
    p: Double?, pairs: Int?, wilcoxon: WilcoxonSignedRankTest?, notes: [String]
  ) {
    baseline = a
    candidate = b
    self.test = test
    self.samples = samples
    countBaseline = summaries.0.count
    countCandidate = summaries.1.count
    meanBaseline = summaries.0.mean
    halfWidthBaseline = summaries.0.halfWidth
    meanCandidate = summaries.1.mean
    halfWidthCandidate = summaries.1.halfWidth
    self.difference = difference
    self.halfWidth = halfWidth
    self.t = t
    degreesOfFreedom = df
    pValue = p
    self.pairs = pairs
    self.wilcoxon = wilcoxon
    self.notes = notes
  }

  /// Whether the repeats can be tested as samples: both have several, or one side is a single
  /// run of a deterministic configuration (a constant). Returns which side is constant.
  private static func unpairedRepeats(_ a: ConfigurationSamples, _ b: ConfigurationSamples) -> Constant? {
    if a.repeats.count > 1 && b.repeats.count > 1 { return Constant.neither }
    if a.repeats.count == 1, isConstant(a), b.varies { return .baseline }
    if b.repeats.count == 1, isConstant(b), a.varies { return .candidate }
    return nil
  }

  /// Whether every repeat gives (or would give) the same value: identical repeats, or one run
  /// of a deterministic policy on a trace file.
  static func isConstant(_ samples: ConfigurationSamples) -> Bool {
    samples.isDeterministic
      || (samples.repeats.count == 1 && samples.isRandomized == false && !samples.isSynthetic)
  }

  private enum Constant {
    case neither, baseline, candidate
  }

  /// Paired t-test and signed-rank test on the per-seed differences.
  private static func pairedRepeats(_ a: ConfigurationSamples, _ b: ConfigurationSamples) -> PairComparison {
    let differences = zip(b.repeats, a.repeats).map { $0.value - $1.value }
    let test = MeanTest(values: differences)
    return PairComparison(
      a, b, test: .pairedT, samples: .repeats,
      summaries: (SampleSummary(a.repeats.map(\.value)), SampleSummary(b.repeats.map(\.value))),
      difference: test.mean, halfWidth: test.halfWidth, t: test.t, df: test.degreesOfFreedom, p: test.pValue,
      pairs: differences.count, wilcoxon: WilcoxonSignedRankTest(differences: differences),
      notes: ["repeats paired by seed (each seed generates the same synthetic trace for both)"])
  }

  /// Welch's test on the repeats (a deterministic single run counts as a constant).
  private static func welch(_ a: ConfigurationSamples, _ b: ConfigurationSamples, constant: Constant)
    -> PairComparison
  {
    let summary = { (samples: ConfigurationSamples, isConstant: Bool) in
      isConstant
        ? SampleSummary(count: 2, mean: samples.overall, standardDeviation: 0)
        : SampleSummary(samples.repeats.map(\.value))
    }
    let summaryA = summary(a, constant == .baseline)
    let summaryB = summary(b, constant == .candidate)
    let test = WelchTest(summaryA, summaryB)
    var notes: [String] = []
    if constant != .neither { notes.append("a single deterministic run is compared as a constant") }
    if a.isDeterministic || b.isDeterministic { notes.append("one side is deterministic: no variance across seeds") }
    return PairComparison(
      a, b, test: .welch, samples: .repeats, summaries: (summaryA, summaryB), difference: test.difference,
      halfWidth: test.halfWidth, t: test.t, df: test.degreesOfFreedom, p: test.pValue, pairs: nil, wilcoxon: nil,
      notes: notes)
  }

  /// The paired test on per-window differences when both have the same windows of the same trace.
  private static func pairedWindows(_ a: ConfigurationSamples, _ b: ConfigurationSamples) -> PairComparison? {
    guard case .series(let specA, let numeratorsA, let denominatorsA, let excluded) = a.windows,
      case .series(let specB, let numeratorsB, let denominatorsB, _) = b.windows,
      specA == specB, a.trace == b.trace, denominatorsA == denominatorsB, a.windowNumbers == b.windowNumbers,
      numeratorsA.count >= 2,
      !a.isSynthetic || a.repeats.first?.seed == b.repeats.first?.seed
    else { return nil }
    let own = (
      WindowedRatio(numerators: numeratorsA, denominators: denominatorsA),
      WindowedRatio(numerators: numeratorsB, denominators: denominatorsA)
    )
    let batches = BatchMeans(
      numerators: zip(numeratorsB, numeratorsA).map { $0 - $1 }, denominators: denominatorsA)
    let test = MeanTest(numerators: batches.numerators, denominators: batches.denominators)
    let differences = zip(batches.numerators, batches.denominators).map { $0 / $1 }
    var notes = batchNotes(batches, what: "differences")
    if numeratorsA == numeratorsB { notes.append("identical in every window") }
    if excluded > 0 {
      let onlyLast = excluded == 1 && (a.windowNumbers.map { $0 == Array(0..<$0.count) } ?? true)
      notes.append(
        onlyLast
          ? "the last window is left out (shorter than half a window, or without a value of the metric)"
          : "\(excluded) windows are left out (shorter than half a window, or without a value of the metric)")
    }
    return PairComparison(
      a, b, test: .pairedT, samples: .windows, summaries: (summary(own.0), summary(own.1)),
      difference: test.mean, halfWidth: test.halfWidth, t: test.t, df: test.degreesOfFreedom, p: test.pValue,
      pairs: batches.count, wilcoxon: WilcoxonSignedRankTest(differences: differences), notes: notes)
  }

  /// What batching did to a series, for the notes.
  static func batchNotes(_ batches: BatchMeans, what: String) -> [String] {
    var notes: [String] = []
    let before = Decimal.fixed(batches.windowAutocorrelation, 2)
    if batches.windowsPerBatch > 1 {
      notes.append(
        "\(what) autocorrelated (lag-1 \(before)): windows merged into \(batches.count) batches of \(batches.windowsPerBatch) (lag-1 \(Decimal.fixed(batches.autocorrelation, 2)))"
      )
    }
    if batches.isAutocorrelated {
      notes.append(
        "\(what) remain autocorrelated (lag-1 \(Decimal.fixed(batches.autocorrelation, 2)) over \(batches.count) batches, too few to merge): the interval may be too narrow"
      )
    }
    return notes
  }

  /// A windowed ratio as a summary over its batches (count, mean, sd = SE·√count).
  static func summary(_ ratio: WindowedRatio) -> SampleSummary {
    SampleSummary(
      count: ratio.test.count, mean: ratio.mean,
      standardDeviation: ratio.test.standardError * Double(ratio.test.count).squareRoot())
  }

  /// The windows of a configuration as a summary over batches, if it has at least two.
  private static func windowSummary(_ samples: ConfigurationSamples) -> SampleSummary? {
    switch samples.windows {
    case .series(_, let numerators, let denominators, _) where numerators.count >= 2:
      return summary(WindowedRatio(numerators: numerators, denominators: denominators))
    case .summary(_, let mean, let error, let batches) where batches >= 2:
      return SampleSummary(count: batches, mean: mean, standardDeviation: error * Double(batches).squareRoot())
    default:
      return nil
    }
  }
}
