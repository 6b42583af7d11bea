import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// This build's speed against a reference build, measured side by side: per configuration
/// and overall, the estimated ratio (this build ÷ reference; below 1 is slower) with its
/// interval, and which are judged slower (the whole interval below 1 − tolerance).
public struct SpeedVerdict: Sendable {
  /// One judged ratio.
  public struct Judged: Sendable {
    /// `lru @ 0.01`, `preset:sdwebimage`, or `overall`.
    public var label: String
    /// The baseline report of a configuration; empty for the overall ratio.
    public var report: String
    public var ratio: Double
    public var lower: Double
    public var upper: Double
    /// Paired measurements behind it (rounds).
    public var rounds: Int
    /// Geometric means of the requests per second over those rounds.
    public var candidateSpeed: Double
    public var referenceSpeed: Double
    /// 1 − tolerance: slower means the whole interval is below this.
    public var threshold: Double
    /// Index of the configuration in its ``SpeedPlan`` (-1 for the overall ratio).
    public var configuration = -1

    /// The whole interval is below the threshold.
    public var isSlower: Bool { upper < threshold }
    /// The interval holds the threshold: more rounds could still decide either way.
    public var isUndecided: Bool { lower <= threshold && threshold <= upper }
  }

  /// A configuration whose speed was not judged, and why.
  public struct Unjudged: Sendable {
    public var label: String
    public var report: String
    public var reason: String
  }

  public var candidate: String
  public var reference: String
  public var configurations: [Judged]
  /// The geometric mean over every judged configuration; nil when none was judged.
  public var overall: Judged?
  public var unjudged: [Unjudged]
  /// Rounds in which every configuration was measured (each configuration may have more).
  public var fullRounds: Int
  public var confidence: Double
  /// Wall-clock seconds the measurement took.
  public var seconds: Double

  /// The configurations judged slower.
  public var slower: [Judged] { configurations.filter(\.isSlower) }

  /// Whether speed fails the gate: overall or any configuration slower.
  public var failed: Bool { overall?.isSlower == true || !slower.isEmpty }
}

extension SpeedVerdict.Judged {
  /// A configuration's ratio from its paired log ratios ln(candidate ÷ reference): the
  /// Hodges–Lehmann estimate with Wilcoxon's signed-rank interval (one round in three landing
  /// on a neighbour's burst makes these heavy-tailed, which a t interval would not survive).
  static func configuration(
    label: String, report: String, logRatios: [Double], candidate: [Double], reference: [Double],
    threshold: Double, confidence: Double
  ) -> Self {
    let interval = SignedRankInterval(values: logRatios, confidence: confidence)
    return Self(
      label: label, report: report, ratio: exp(interval.estimate),
      lower: interval.confidence == nil ? 0 : exp(interval.lower),
      upper: interval.confidence == nil ? .infinity : exp(interval.upper), rounds: logRatios.count,
      candidateSpeed: geometricMean(candidate), referenceSpeed: geometricMean(reference), threshold: threshold)
  }

  /// The overall ratio from each full round's mean log ratio over all configurations: their
  /// mean with a Student-t interval (each is an average over about a hundred configurations,
  /// so close to normal).
  static func overall(
    roundMeans: [Double], candidate: [Double], reference: [Double], threshold: Double, confidence: Double
  ) -> Self {
    let test = MeanTest(values: roundMeans, confidence: confidence)
    let defined = roundMeans.count > 1
    return Self(
      label: "overall", report: "", ratio: exp(test.mean), lower: defined ? exp(test.lower) : 0,
      upper: defined ? exp(test.upper) : .infinity, rounds: roundMeans.count,
      candidateSpeed: geometricMean(candidate), referenceSpeed: geometricMean(reference), threshold: threshold)
  }

  static func geometricMean(_ values: [Double]) -> Double {
    let logs = values.filter { $0 > 0 }.map { log($0) }
    return logs.isEmpty ? 0 : exp(logs.reduce(0, +) / Double(logs.count))
  }
}
