import CGSL

/// The Hodges–Lehmann estimate of a paired sample's centre (the median of its Walsh averages,
/// (xᵢ + xⱼ)/2 for i ≤ j) and the confidence interval that inverts Wilcoxon's signed-rank
/// test: the k-th smallest and k-th largest Walsh averages, k from the exact null
/// distribution of the signed-rank statistic (up to ``WilcoxonSignedRankTest/exactLimit``
/// values; above, its normal approximation). Distribution-free for symmetric data, and a few
/// wild values barely move it, where they would widen a t interval. O(n² log n).
public struct SignedRankInterval: Sendable, Equatable {
  /// Number of values (n).
  public let count: Int
  /// The median of the n(n + 1)/2 Walsh averages.
  public let estimate: Double
  public let lower: Double
  public let upper: Double
  /// The interval's actual coverage (at least the requested confidence: the statistic is
  /// discrete); nil when n is too small for any interval at that confidence (then lower and
  /// upper are the smallest and largest values, with less coverage than asked).
  public let confidence: Double?

  /// Estimates the centre of `values` (finite, at least one) with an interval at `confidence`.
  public init(values: [Double], confidence: Double = 0.95) {
    _ = GSL.configured
    precondition(!values.isEmpty, "an interval needs at least one value")
    precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
    let n = values.count
    var walsh: [Double] = []
    walsh.reserveCapacity(n * (n + 1) / 2)
    for i in 0..<n {
      for j in i..<n { walsh.append((values[i] + values[j]) / 2) }
    }
    walsh.sort()
    let m = walsh.count
    count = n
    estimate = m % 2 == 1 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2
    let (rank, coverage) = Self.criticalRank(count: n, confidence: confidence)
    if let rank {
      lower = walsh[rank - 1]
      upper = walsh[m - rank]
      self.confidence = coverage
    } else {
      lower = walsh[0]
      upper = walsh[m - 1]
      self.confidence = nil
    }
  }

  /// The largest k with P(T⁺ ≤ k − 1) ≤ (1 − confidence)/2 under the null (T⁺ the sum of the
  /// ranks of the positive values among n without ties), and the coverage 1 − 2·P(T⁺ ≤ k − 1)
  /// of the interval between the k-th smallest and k-th largest Walsh averages; nil when even
  /// k = 1 covers less than asked.
  public static func criticalRank(count n: Int, confidence: Double) -> (rank: Int?, coverage: Double) {
    let tail = (1 - confidence) / 2
    guard n > 0 else { return (nil, 0) }
    if n <= WilcoxonSignedRankTest.exactLimit {
      let maximum = n * (n + 1) / 2
      var distribution = [Double](repeating: 0, count: maximum + 1)
      distribution[0] = 1
      var reach = 0
      for rank in 1...n {
        reach += rank
        var sum = reach
        while sum >= 0 {
          distribution[sum] = 0.5 * (distribution[sum] + (sum >= rank ? distribution[sum - rank] : 0))
          sum -= 1
        }
      }
      var cumulative = 0.0
      var k = 0
      while k <= maximum, cumulative + distribution[k] <= tail {
        cumulative += distribution[k]
        k += 1
      }
      return k == 0 ? (nil, 1 - 2 * distribution[0]) : (k, 1 - 2 * cumulative)
    }
    // Normal approximation: T⁺ has mean n(n+1)/4 and variance n(n+1)(2n+1)/24.
    let size = Double(n)
    let mean = size * (size + 1) / 4
    let deviation = (size * (size + 1) * (2 * size + 1) / 24).squareRoot()
    let z = gsl_cdf_ugaussian_Pinv(1 - tail)
    let k = max(1, Int((mean + 0.5 - z * deviation).rounded(.down)))
    let coverage = 1 - 2 * gsl_cdf_ugaussian_P((Double(k - 1) + 0.5 - mean) / deviation)
    return (k, coverage)
  }
}
