import CGSL

/// The weighted mean of per-sample values (the ratio estimator Σ wᵢxᵢ / Σ wᵢ), its standard
/// error by linearisation, a Student-t confidence interval with k − 1 degrees of freedom and
/// the two-sided t-test of "mean = 0". With equal weights this is the one-sample t-test, and
/// on paired differences the paired t-test. O(k).
public struct MeanTest: Sendable, Equatable {
  /// Number of values (k).
  public let count: Int
  /// Σ wᵢxᵢ / Σ wᵢ.
  public let mean: Double
  /// Weighted standard deviation of the values, √(Σ wᵢ(xᵢ − mean)² / Σ wᵢ · k/(k − 1)): the
  /// sample standard deviation when the weights are equal (0 for one value).
  public let standardDeviation: Double
  /// √(Σ wᵢ²(xᵢ − mean)² / (k(k − 1) w̄²)): sd/√k when the weights are equal (0 for one value).
  public let standardError: Double
  /// Half-width of the two-sided interval at ``confidence`` (0 for one value).
  public let halfWidth: Double
  public let confidence: Double
  /// mean / standard error (±infinity when the values are all equal and not 0).
  public let t: Double
  /// k − 1.
  public let degreesOfFreedom: Double
  /// Two-sided p-value of "mean = 0"; nil for fewer than two values.
  public let pValue: Double?

  /// Tests `values`, weighted by `weights` (positive; all 1 when nil), at `confidence`.
  public init(values: [Double], weights: [Double]? = nil, confidence: Double = 0.95) {
    _ = GSL.configured
    precondition(!values.isEmpty, "a mean needs at least one value")
    precondition(weights == nil || weights?.count == values.count, "one weight per value")
    precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
    let weights = weights ?? [Double](repeating: 1, count: values.count)
    let k = Double(values.count)
    let total = weights.reduce(0, +)
    let mean = zip(values, weights).reduce(0) { $0 + $1.0 * $1.1 } / total
    self.count = values.count
    self.mean = mean
    self.confidence = confidence
    degreesOfFreedom = k - 1
    guard values.count > 1 else {
      standardDeviation = 0
      standardError = 0
      halfWidth = 0
      t = 0
      pValue = nil
      return
    }
    var spread = 0.0
    var residuals = 0.0
    for (value, weight) in zip(values, weights) {
      let deviation = value - mean
      spread += weight * deviation * deviation
      residuals += weight * weight * deviation * deviation
    }
    let meanWeight = total / k
    let constant = values.allSatisfy { $0 == values[0] }
    standardDeviation = constant ? 0 : (spread / total * k / (k - 1)).squareRoot()
    let error = constant ? 0 : (residuals / (k * (k - 1) * meanWeight * meanWeight)).squareRoot()
    standardError = error
    halfWidth = SampleSummary.tQuantile(confidence, degreesOfFreedom: k - 1) * error
    if error > 0 {
      t = mean / error
      pValue = min(1, 2 * gsl_cdf_tdist_Q(abs(mean / error), k - 1))
    } else {
      t = mean == 0 ? 0 : (mean > 0 ? .infinity : -.infinity)
      pValue = mean == 0 ? 1 : 0
    }
  }

  /// Tests the ratios numeratorᵢ / denominatorᵢ weighted by their denominators (positive), so
  /// that ``mean`` is Σ numerators / Σ denominators.
  public init(numerators: [Double], denominators: [Double], confidence: Double = 0.95) {
    precondition(numerators.count == denominators.count, "one denominator per numerator")
    self.init(
      values: zip(numerators, denominators).map { $0 / $1 }, weights: denominators, confidence: confidence)
  }

  /// Lower and upper ends of the confidence interval.
  public var lower: Double { mean - halfWidth }
  public var upper: Double { mean + halfWidth }

  /// Whether "mean = 0" is rejected at level `alpha`.
  public func isSignificant(at alpha: Double = 0.05) -> Bool { (pValue ?? 1) < alpha }
}
