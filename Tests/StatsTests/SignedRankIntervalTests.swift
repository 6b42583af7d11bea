import Foundation
import Stats
import Testing

/// The Hodges–Lehmann estimate and the signed-rank interval: the published table of critical
/// values, a brute-force count of sign patterns, a published example, robustness to wild
/// values, and coverage on heavy-tailed samples.
@Suite struct SignedRankIntervalTests {
  /// Two-sided 5 % critical values T of Wilcoxon's signed-rank statistic for n = 6…30 (the
  /// standard table, e.g. Hollander & Wolfe, Table A.4): reject when T ≤ value, so the
  /// interval runs from the (T + 1)-th smallest to the (T + 1)-th largest Walsh average.
  static let criticalValues: [Int: Int] = [
    6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 11: 10, 12: 13, 13: 17, 14: 21, 15: 25, 16: 29, 17: 34, 18: 40, 19: 46,
    20: 52, 21: 58, 22: 65, 23: 73, 24: 81, 25: 89, 26: 98, 27: 107, 28: 116, 29: 126, 30: 137,
  ]

  @Test func criticalRanksEqualThePublishedTable() throws {
    for (n, value) in Self.criticalValues {
      let (rank, coverage) = SignedRankInterval.criticalRank(count: n, confidence: 0.95)
      #expect(rank == value + 1, "n = \(n)")
      #expect(coverage >= 0.95 && coverage < 0.975, "n = \(n): coverage \(coverage)")
    }
    #expect(SignedRankInterval.criticalRank(count: 5, confidence: 0.95).rank == nil, "n = 5 has no 95 % interval")
  }

  /// P(T⁺ ≤ t) by enumerating every sign pattern of ranks 1…n, independent of the convolution.
  static func bruteForceTail(_ n: Int, _ t: Int) -> Double {
    var count = 0
    for pattern in 0..<(1 << n) {
      var sum = 0
      for rank in 1...n where pattern & (1 << (rank - 1)) != 0 { sum += rank }
      if sum <= t { count += 1 }
    }
    return Double(count) / Double(1 << n)
  }

  @Test func coverageEqualsABruteForceCount() throws {
    for n in 6...14 {
      for confidence in [0.9, 0.95, 0.99] {
        let (rank, coverage) = SignedRankInterval.criticalRank(count: n, confidence: confidence)
        guard let rank else { continue }
        let tail = Self.bruteForceTail(n, rank - 1)
        #expect(abs(coverage - (1 - 2 * tail)) < 1e-12, "n = \(n), confidence \(confidence)")
        #expect(tail <= (1 - confidence) / 2 + 1e-12 && Self.bruteForceTail(n, rank) > (1 - confidence) / 2)
      }
    }
  }

  /// Hollander & Wolfe's depression scores (R's `wilcox.test` example; `wilcox.test(x, y,
  /// paired = TRUE, conf.int = TRUE)` gives the same): the pseudo-median of x − y is 0.46, and
  /// with n = 9 the interval is the 6th smallest and 6th largest of the 45 Walsh averages,
  /// [0.010, 0.786], with coverage 1 − 2·10/512 = 0.9609 (P(T⁺ ≤ 5) = 10/512).
  @Test func publishedExample() throws {
    let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    let interval = SignedRankInterval(values: zip(x, y).map { $0 - $1 })
    #expect(abs(interval.estimate - 0.46) < 1e-9)
    #expect(abs(interval.lower - 0.010) < 1e-9 && abs(interval.upper - 0.786) < 1e-9)
    #expect(abs((interval.confidence ?? 0) - (1 - 20.0 / 512)) < 1e-12)
  }

  @Test func wildValuesBarelyMoveIt() throws {
    let calm = (0..<20).map { Double($0 % 5) * 0.01 - 0.02 }
    var wild = calm
    wild[3] = 0.4
    wild[11] = -0.4
    let (a, b) = (SignedRankInterval(values: calm), SignedRankInterval(values: wild))
    #expect(abs(b.estimate - a.estimate) < 0.011)
    #expect(b.upper - b.lower < 0.06, "two wild values must not blow the interval up: \(b.lower)…\(b.upper)")
    let t = MeanTest(values: wild)
    #expect(t.upper - t.lower > 2 * (b.upper - b.lower), "a t interval widens where the rank interval does not")
  }

  /// 2,000 seeded samples of 10 from a symmetric mixture (a third of the values 8× wider, as
  /// the gate's paired ratios are): the interval holds the centre at least 95 % of the time
  /// up to sampling error (its exact coverage for n = 10 is 95.1 %).
  @Test func coverageOnHeavyTailedSamples() throws {
    var state: UInt64 = 42
    func uniform() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(state >> 11) + 0.5) / Double(1 << 53)
    }
    func normal() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) }
    var covered = 0
    let trials = 2000
    for _ in 0..<trials {
      let sample = (0..<10).map { _ in 0.3 + (uniform() < 1.0 / 3 ? 0.2 : 0.025) * normal() }
      let interval = SignedRankInterval(values: sample)
      if interval.lower <= 0.3 && 0.3 <= interval.upper { covered += 1 }
    }
    let rate = Double(covered) / Double(trials)
    #expect(rate > 0.935 && rate < 0.97, "coverage \(rate)")
  }
}
