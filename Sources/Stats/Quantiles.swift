import CGSL

/// Inverse distribution functions (GSL), for drawing a value from a hash instead of a stream.
public enum Quantiles {
  /// The standard normal quantile of `p` in (0, 1).
  public static func standardNormal(_ p: Double) -> Double { gsl_cdf_ugaussian_Pinv(p) }

  /// The Pareto(`shape`, `scale`) quantile of `p` in (0, 1).
  public static func pareto(_ p: Double, shape: Double, scale: Double) -> Double {
    gsl_cdf_pareto_Pinv(p, shape, scale)
  }
}
