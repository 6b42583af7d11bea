import Stats
import Testing

/// Paired t, Wilcoxon's signed-rank test, Holm's adjustment and batch means against
/// hand-worked values and published examples (each checked with an independent implementation).
@Suite struct PairedStatisticsTests {
  static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

  /// Hollander & Wolfe's depression scores (R's `wilcox.test` example): x − y has mean
  /// 0.431889, sd 0.426855; paired t = 3.035375 on 8 df, p = 0.016177, 95 % CI
  /// [0.103779, 0.759999]; Wilcoxon V = 40, exact p = 10/256 = 0.0390625.
  static let x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
  static let y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]

  @Test func pairedTOnPublishedData() throws {
    let differences = zip(Self.x, Self.y).map { $0 - $1 }
    let test = MeanTest(values: differences)
    #expect(test.count == 9 && test.degreesOfFreedom == 8)
    #expect(Self.close(test.mean, 0.431889))
    #expect(Self.close(test.standardDeviation, 0.426855))
    #expect(Self.close(test.t, 3.035375))
    #expect(Self.close(try #require(test.pValue), 0.016177))
    #expect(Self.close(test.lower, 0.103779) && Self.close(test.upper, 0.759999))
    #expect(test.isSignificant(at: 0.05) && !test.isSignificant(at: 0.01))
  }

  @Test func wilcoxonExactOnPublishedData() throws {
    let test = WilcoxonSignedRankTest(differences: zip(Self.x, Self.y).map { $0 - $1 })
    #expect(test.count == 9 && test.statistic == 40 && test.method == .exact)
    #expect(Self.close(try #require(test.pValue), 0.0390625, 1e-12))
  }

  /// 1, 2, 2, 3, −1, 4, 5, 5, 5, −2, 6, 7: mid-ranks 1.5, 4, 4, 6, 1.5, 7, 9, 9, 9, 4, 11, 12;
  /// W⁺ = 72.5. Enumerating all 4096 sign patterns gives P(W⁺ ≥ 72.5) = 13/4096, so the exact
  /// two-sided p is 26/4096 = 0.0063477. The normal approximation: mean 39, variance
  /// 162.5 − (6 + 24 + 24)/48 = 161.375, z = (33.5 − 0.5)/12.7033 = 2.5977, p = 0.0093839.
  @Test func wilcoxonWithTiesExactAndNormal() throws {
    let differences: [Double] = [1, 2, 2, 3, -1, 4, 5, 5, 5, -2, 6, 7, 0]
    let exact = WilcoxonSignedRankTest(differences: differences)
    #expect(exact.count == 12, "the zero difference is dropped")
    #expect(exact.statistic == 72.5 && exact.method == .exact)
    #expect(Self.close(try #require(exact.pValue), 26.0 / 4096, 1e-12))
    let normal = WilcoxonSignedRankTest(differences: differences, exactLimit: 0)
    #expect(normal.method == .normal)
    #expect(Self.close(try #require(normal.pValue), 0.0093839, 1e-6))
  }

  /// 58 non-zero differences use the normal approximation (SciPy's `wilcoxon`, approx,
  /// continuity correction: p = 0.0439367).
  @Test func wilcoxonLargeSampleUsesTheNormalApproximation() throws {
    let differences = (0..<60).map { Double(($0 * 37) % 23 - 9) / 7 }
    let test = WilcoxonSignedRankTest(differences: differences)
    #expect(test.count == 58 && test.method == .normal)
    #expect(Self.close(try #require(test.pValue), 0.04393668, 1e-7))
    #expect(WilcoxonSignedRankTest(differences: [0, 0, 0]).pValue == nil, "nothing to test")
    #expect(WilcoxonSignedRankTest(differences: [1]).pValue == 1, "one positive difference: p = 2 × ½")
  }

  /// Weights: with equal weights the weighted test is the plain one; with windows of 100, 300
  /// and 600 requests and 50, 120 and 330 hits the mean is 500/1000 = 0.5, the ratios 0.5,
  /// 0.4, 0.55, residuals wᵢ(rᵢ − 0.5) = 0, −30, 30, so SE = √(1800 / (3 · 2 · 333.33²)) = 0.051962.
  @Test func weightedMeanIsTheRatioEstimator() throws {
    let plain = MeanTest(values: [0.2, 0.4, 0.9])
    let weighted = MeanTest(values: [0.2, 0.4, 0.9], weights: [5, 5, 5])
    #expect(Self.close(plain.mean, weighted.mean, 1e-12) && Self.close(plain.halfWidth, weighted.halfWidth, 1e-12))
    #expect(Self.close(try #require(plain.pValue), try #require(weighted.pValue), 1e-12))
    let windows = MeanTest(numerators: [50, 120, 330], denominators: [100, 300, 600])
    #expect(Self.close(windows.mean, 0.5, 1e-12))
    #expect(Self.close(windows.standardError, 0.051962))
    #expect(Self.close(windows.halfWidth, 4.302653 * 0.051962, 1e-5), "t(0.975, 2) = 4.302653")
    let constant = MeanTest(values: [0.1, 0.1, 0.1])
    #expect(constant.pValue == 0 && constant.halfWidth == 0, "equal non-zero differences: no spread")
    #expect(MeanTest(values: [0.3]).pValue == nil)
  }

  /// p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005 × 4 = 0.02, 0.01 × 3 = 0.03,
  /// 0.03 × 2 = 0.06, 0.04 × 1 = 0.04 → kept monotone at 0.06.
  @Test func holmAdjustment() {
    let adjusted = HolmAdjustment.adjust([0.01, 0.04, 0.03, 0.005])
    for (value, expected) in zip(adjusted, [0.03, 0.06, 0.06, 0.02]) { #expect(Self.close(value, expected, 1e-12)) }
    #expect(HolmAdjustment.adjust([0.5, 0.9]) == [1, 1], "capped at 1")
    #expect(HolmAdjustment.adjust([]).isEmpty)
  }

  /// The GSL manual's example data 17.2, 18.1, 16.5, 18.3, 12.6: deviations from 16.54 are
  /// 0.66, 1.56, −0.04, 1.76, −3.94; Σ lagged products −6.0376 over Σ squares 21.492 gives a
  /// lag-1 autocorrelation of −0.280923.
  @Test func lagOneAutocorrelation() {
    let values = [17.2, 18.1, 16.5, 18.3, 12.6]
    #expect(Self.close(BatchMeans.lag1(values, [1, 1, 1, 1, 1]), -0.280923))
    #expect(BatchMeans.lag1([0.5, 0.5, 0.5], [1, 1, 1]) == 0, "no variance: treated as uncorrelated")
  }

  /// An AR(1) series with φ = 0.9 is merged until its batches are no longer evidently
  /// correlated; totals are kept, so the ratio estimator does not move. A series without
  /// correlation is left alone.
  @Test func batchMeansMergeOnlyAutocorrelatedWindows() {
    let random = GSLRandom(seed: 5)
    var level = 0.0
    var correlated: [Double] = []
    var independent: [Double] = []
    for _ in 0..<512 {
      level = 0.9 * level + (random.uniform() - 0.5)
      correlated.append(10 + level)
      independent.append(10 + random.uniform() - 0.5)
    }
    let ones = [Double](repeating: 1, count: 512)
    let merged = BatchMeans(numerators: correlated, denominators: ones)
    #expect(merged.windowAutocorrelation > 0.8)
    #expect(merged.windowsPerBatch > 1 && merged.count == 512 / merged.windowsPerBatch)
    #expect(merged.autocorrelation <= BatchMeans.limit(batches: merged.count) || merged.count < 16)
    #expect(Self.close(merged.numerators.reduce(0, +), correlated.reduce(0, +), 1e-9))
    #expect(merged.denominators.reduce(0, +) == 512)
    let plain = BatchMeans(numerators: independent, denominators: ones)
    #expect(plain.windowsPerBatch == 1 && plain.count == 512)
    #expect(BatchMeans(numerators: [1, 2, 3, 4, 5], denominators: [1, 1, 1, 1, 1]).windowsPerBatch == 1)
    #expect(BatchMeans.limit(batches: 16) == 1.645 / 4 && BatchMeans.limit(batches: 10_000) == 0.1)
  }
}
