import CGSL

/// Least-squares line y = intercept + slope · x (GSL `gsl_fit_linear`, or `gsl_fit_wlinear`
/// with weights), with the coefficient of determination and the coefficients' standard
/// errors. O(n).
public struct LinearFit: Sendable, Equatable {
  public let intercept: Double
  public let slope: Double
  /// R² = 1 − residual sum of squares / total sum of squares (1 when y is constant),
  /// weighted like the fit.
  public let rSquared: Double
  /// Standard errors of the intercept and the slope (from the residuals; nan with two points).
  public let interceptError: Double
  public let slopeError: Double
  /// Points fitted.
  public let count: Int

  /// The fit of `y` on `x` (equal lengths), or nil with fewer than two points or when GSL
  /// reports a failure or a non-finite slope. `weights` (positive, one per point; e.g.
  /// 1 / y² for relative errors) make it a weighted fit whose errors are scaled by the
  /// residuals (reduced χ²), so only the weights' ratios matter.
  public init?(x: [Double], y: [Double], weights: [Double]? = nil) {
    guard x.count == y.count, x.count >= 2, weights.map({ $0.count == x.count && $0.allSatisfy { $0 > 0 } }) ?? true
    else { return nil }
    _ = GSL.configured
    var intercept = 0.0
    var slope = 0.0
    var cov00 = 0.0
    var cov01 = 0.0
    var cov11 = 0.0
    var residual = 0.0
    let w = weights ?? Array(repeating: 1, count: x.count)
    let status = x.withUnsafeBufferPointer { xs in
      y.withUnsafeBufferPointer { ys in
        w.withUnsafeBufferPointer { ws in
          weights == nil
            ? gsl_fit_linear(
              xs.baseAddress, 1, ys.baseAddress, 1, xs.count, &intercept, &slope, &cov00, &cov01, &cov11, &residual)
            : gsl_fit_wlinear(
              xs.baseAddress, 1, ws.baseAddress, 1, ys.baseAddress, 1, xs.count, &intercept, &slope, &cov00, &cov01,
              &cov11, &residual)
        }
      }
    }
    guard status == 0, slope.isFinite else { return nil }
    let weightSum = w.reduce(0, +)
    let mean = zip(w, y).reduce(0) { $0 + $1.0 * $1.1 } / weightSum
    let total = zip(w, y).reduce(0) { $0 + $1.0 * ($1.1 - mean) * ($1.1 - mean) }
    self.intercept = intercept
    self.slope = slope
    rSquared = total > 0 ? 1 - residual / total : 1
    count = x.count
    // gsl_fit_linear's covariance already carries s² = residual / (n − 2); gsl_fit_wlinear's
    // takes the weights as exact 1 / σ², so it is scaled by the reduced χ² here.
    let scale = weights == nil ? 1 : (x.count > 2 ? residual / Double(x.count - 2) : .nan)
    interceptError = x.count > 2 ? (cov00 * scale).squareRoot() : .nan
    slopeError = x.count > 2 ? (cov11 * scale).squareRoot() : .nan
  }

  /// The intercept's and the slope's intervals at `confidence` (Student t on n − 2 degrees
  /// of freedom); nil with two points.
  public func intervals(confidence: Double = 0.95) -> (intercept: ClosedRange<Double>, slope: ClosedRange<Double>)? {
    guard count > 2, interceptError.isFinite, slopeError.isFinite else { return nil }
    let t = SampleSummary.tQuantile(confidence, degreesOfFreedom: Double(count - 2))
    return (
      (intercept - t * interceptError)...(intercept + t * interceptError),
      (slope - t * slopeError)...(slope + t * slopeError)
    )
  }
}
