import CGSL

/// Wilcoxon's signed-rank test of "the differences are symmetric about 0": a distribution-free
/// check beside the paired t-test. Zero differences are dropped; tied magnitudes get their
/// mid-rank. The p-value is exact (the permutation distribution of the signs, ties included)
/// for up to ``exactLimit`` non-zero differences, O(n³) time and O(n²) memory; above that it
/// is the normal approximation with tie and continuity corrections, O(n log n).
public struct WilcoxonSignedRankTest: Sendable, Equatable {
  /// How the p-value was computed.
  public enum Method: String, Sendable {
    case exact, normal
  }

  /// Largest number of non-zero differences with an exact p-value.
  public static let exactLimit = 50

  /// Non-zero differences (the test's n).
  public let count: Int
  /// Sum of the ranks of the positive differences (W⁺).
  public let statistic: Double
  /// Two-sided p-value; nil when every difference is 0 (nothing to test).
  public let pValue: Double?
  public let method: Method

  /// Tests `differences` (finite), exactly when at most `exactLimit` are non-zero.
  public init(differences: [Double], exactLimit: Int = WilcoxonSignedRankTest.exactLimit) {
    _ = GSL.configured
    let nonZero = differences.filter { $0 != 0 }
    let ranks = Self.midRanks(nonZero.map(abs))
    count = nonZero.count
    statistic = zip(nonZero, ranks).reduce(0) { $0 + ($1.0 > 0 ? $1.1 : 0) }
    method = nonZero.count <= exactLimit ? .exact : .normal
    guard !nonZero.isEmpty else {
      pValue = nil
      return
    }
    pValue =
      method == .exact
      ? Self.exactPValue(
        doubledRanks: ranks.map { Int(($0 * 2).rounded()) }, doubledStatistic: Int((statistic * 2).rounded()))
      : Self.normalPValue(ranks: ranks, statistic: statistic)
  }

  /// 1-based ranks of `values`, ties sharing the mean of their positions.
  static func midRanks(_ values: [Double]) -> [Double] {
    let order = values.indices.sorted { values[$0] < values[$1] }
    var ranks = [Double](repeating: 0, count: values.count)
    var start = 0
    while start < order.count {
      var end = start + 1
      while end < order.count && values[order[end]] == values[order[start]] { end += 1 }
      let rank = Double(start + 1 + end) / 2
      for position in start..<end { ranks[order[position]] = rank }
      start = end
    }
    return ranks
  }

  /// P(|S − E S| ≥ |s − E S|) where S sums each doubled rank with probability ½: the
  /// distribution is built by convolution over the ranks.
  static func exactPValue(doubledRanks: [Int], doubledStatistic: Int) -> Double {
    let total = doubledRanks.reduce(0, +)
    var distribution = [Double](repeating: 0, count: total + 1)
    distribution[0] = 1
    var reach = 0
    for rank in doubledRanks {
      reach += rank
      var sum = reach
      while sum >= 0 {
        distribution[sum] = 0.5 * (distribution[sum] + (sum >= rank ? distribution[sum - rank] : 0))
        sum -= 1
      }
    }
    let lower = distribution[0...min(doubledStatistic, total)].reduce(0, +)
    let upper = distribution[max(doubledStatistic, 0)...total].reduce(0, +)
    return min(1, 2 * min(lower, upper))
  }

  /// The normal approximation: mean n(n+1)/4, variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over
  /// groups of t tied magnitudes, continuity correction ½.
  static func normalPValue(ranks: [Double], statistic: Double) -> Double {
    let n = Double(ranks.count)
    var ties = 0.0
    var counts: [Double: Double] = [:]
    for rank in ranks { counts[rank, default: 0] += 1 }
    for (_, t) in counts where t > 1 { ties += t * t * t - t }
    let variance = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    guard variance > 0 else { return 1 }
    let z = max(0, abs(statistic - n * (n + 1) / 4) - 0.5) / variance.squareRoot()
    return min(1, 2 * gsl_cdf_ugaussian_Q(z))
  }
}
