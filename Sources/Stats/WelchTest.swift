import CGSL

/// Welch's unequal-variance t-test of two samples' means, with the confidence interval of
/// the difference (Welch–Satterthwaite degrees of freedom; `gsl_cdf_tdist_Q`). O(1) given
/// the two summaries.
public struct WelchTest: Sendable, Equatable {
  /// mean(b) − mean(a).
  public let difference: Double
  /// Half-width of the confidence interval of ``difference`` (at the summaries' confidence).
  public let halfWidth: Double
  /// The t statistic, (mean(b) − mean(a)) / standard error.
  public let t: Double
  /// Welch–Satterthwaite degrees of freedom.
  public let degreesOfFreedom: Double
  /// Two-sided p-value; nil when either sample has fewer than two values or both have no
  /// variance (no test is possible).
  public let pValue: Double?

  /// Compares sample `b` against sample `a`.
  public init(_ a: SampleSummary, _ b: SampleSummary) {
    _ = GSL.configured
    difference = b.mean - a.mean
    let varianceA = a.standardDeviation * a.standardDeviation / Double(a.count)
    let varianceB = b.standardDeviation * b.standardDeviation / Double(b.count)
    let standardError = (varianceA + varianceB).squareRoot()
    guard a.count > 1, b.count > 1, standardError > 0 else {
      t = difference == 0 ? 0 : (difference > 0 ? .infinity : -.infinity)
      degreesOfFreedom = Double(max(a.count + b.count - 2, 0))
      halfWidth = 0
      pValue = a.count > 1 && b.count > 1 ? (difference == 0 ? 1 : 0) : nil
      return
    }
    t = difference / standardError
    let df =
      (varianceA + varianceB) * (varianceA + varianceB)
      / (varianceA * varianceA / Double(a.count - 1) + varianceB * varianceB / Double(b.count - 1))
    degreesOfFreedom = df
    halfWidth = SampleSummary.tQuantile(a.confidence, degreesOfFreedom: df) * standardError
    pValue = min(1, 2 * gsl_cdf_tdist_Q(abs(t), df))
  }

  /// Whether the difference is significant at level `alpha`.
  public func isSignificant(at alpha: Double = 0.05) -> Bool { (pValue ?? 1) < alpha }
}
