import CGSL

/// Mean, standard deviation, Student-t confidence interval and percentiles of a sample
/// (GSL's `gsl_stats_*` and `gsl_cdf_tdist_Pinv`). O(n log n) to build (one sort).
public struct SampleSummary: Sendable, Equatable {
  /// Number of values.
  public let count: Int
  public let mean: Double
  /// Sample standard deviation (n − 1 in the denominator; 0 for one value).
  public let standardDeviation: Double
  /// Half-width of the two-sided confidence interval for the mean (0 for one value).
  public let halfWidth: Double
  /// Confidence level of ``halfWidth`` (0.95 by default).
  public let confidence: Double
  public let minimum: Double
  public let maximum: Double
  /// The values in ascending order (for percentiles).
  public let sorted: [Double]

  /// Summarises `values` (at least one, all finite) at `confidence` (0 < c < 1).
  public init(_ values: [Double], confidence: Double = 0.95) {
    _ = GSL.configured
    precondition(!values.isEmpty, "a summary needs at least one value")
    precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
    let sorted = values.sorted()
    self.sorted = sorted
    count = sorted.count
    self.confidence = confidence
    minimum = sorted[0]
    maximum = sorted[sorted.count - 1]
    let mean = sorted.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    self.mean = mean
    let deviation =
      sorted.count > 1 ? sorted.withUnsafeBufferPointer { gsl_stats_sd_m($0.baseAddress, 1, $0.count, mean) } : 0
    standardDeviation = deviation
    halfWidth = Self.halfWidth(count: sorted.count, standardDeviation: deviation, confidence: confidence)
  }

  /// A summary from moments alone (count, mean, standard deviation), e.g. read back from a
  /// report; it has no order statistics, so ``percentile(_:)`` must not be called.
  public init(count: Int, mean: Double, standardDeviation: Double, confidence: Double = 0.95) {
    precondition(count >= 1, "a summary needs at least one value")
    self.count = count
    self.mean = mean
    self.standardDeviation = count > 1 ? standardDeviation : 0
    self.confidence = confidence
    halfWidth = Self.halfWidth(count: count, standardDeviation: standardDeviation, confidence: confidence)
    minimum = .nan
    maximum = .nan
    sorted = []
  }

  /// Lower and upper ends of the confidence interval.
  public var lower: Double { mean - halfWidth }
  public var upper: Double { mean + halfWidth }

  /// Standard error of the mean.
  public var standardError: Double { count > 1 ? standardDeviation / Double(count).squareRoot() : 0 }

  /// The `p`-th percentile (0...100), linearly interpolated between order statistics
  /// (`gsl_stats_quantile_from_sorted_data`).
  public func percentile(_ p: Double) -> Double {
    precondition(p >= 0 && p <= 100, "percentile must be in 0...100")
    precondition(!sorted.isEmpty, "a summary built from moments has no percentiles")
    return sorted.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, p / 100) }
  }

  /// t(confidence, n − 1) × sd / √n: the half-width of the mean's interval (0 for one value).
  static func halfWidth(count: Int, standardDeviation: Double, confidence: Double) -> Double {
    guard count > 1 else { return 0 }
    return tQuantile(confidence, degreesOfFreedom: Double(count - 1)) * standardDeviation / Double(count).squareRoot()
  }

  /// The two-sided Student-t critical value: P(|T| ≤ t) = `confidence` with `degreesOfFreedom`.
  public static func tQuantile(_ confidence: Double, degreesOfFreedom: Double) -> Double {
    _ = GSL.configured
    return gsl_cdf_tdist_Pinv(0.5 + confidence / 2, degreesOfFreedom)
  }
}
