import CGSL

/// Ordinary least-squares line y = intercept + slope · x (GSL `gsl_fit_linear`), with the
/// coefficient of determination. O(n).
public struct LinearFit: Sendable, Equatable {
  public let intercept: Double
  public let slope: Double
  /// R² = 1 − residual sum of squares / total sum of squares (1 when y is constant).
  public let rSquared: Double

  /// The fit of `y` on `x` (equal lengths), or nil with fewer than two points or when GSL
  /// reports a failure or a non-finite slope.
  public init?(x: [Double], y: [Double]) {
    guard x.count == y.count, x.count >= 2 else { return nil }
    _ = GSL.configured
    var intercept = 0.0
    var slope = 0.0
    var cov00 = 0.0
    var cov01 = 0.0
    var cov11 = 0.0
    var residual = 0.0
    let status = x.withUnsafeBufferPointer { xs in
      y.withUnsafeBufferPointer { ys in
        gsl_fit_linear(
          xs.baseAddress, 1, ys.baseAddress, 1, xs.count, &intercept, &slope, &cov00, &cov01, &cov11, &residual)
      }
    }
    guard status == 0, slope.isFinite else { return nil }
    let mean = y.reduce(0, +) / Double(y.count)
    let total = y.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    self.intercept = intercept
    self.slope = slope
    rSquared = total > 0 ? 1 - residual / total : 1
  }
}
