import Stats
import Testing

/// Summaries and Welch's test against GSL's documented example and hand-worked values.
@Suite struct StatisticsTests {
  static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

  /// GSL manual, "Statistics — Examples": 17.2, 18.1, 16.5, 18.3, 12.6 has mean 16.54,
  /// variance 5.373, median 17.2, quartiles 16.5 and 18.1. The 95 % half-width is
  /// t(0.975, 4) × sd / √5 = 2.776445 × 2.317973 / 2.236068 = 2.878144.
  @Test func gslDocumentedExample() {
    let summary = SampleSummary([17.2, 18.1, 16.5, 18.3, 12.6])
    #expect(summary.count == 5)
    #expect(Self.close(summary.mean, 16.54))
    #expect(Self.close(summary.standardDeviation * summary.standardDeviation, 5.373))
    #expect(summary.minimum == 12.6 && summary.maximum == 18.3)
    #expect(Self.close(summary.percentile(50), 17.2))
    #expect(Self.close(summary.percentile(25), 16.5) && Self.close(summary.percentile(75), 18.1))
    #expect(Self.close(summary.halfWidth, 2.878144))
    #expect(Self.close(summary.lower, 16.54 - 2.878144) && Self.close(summary.upper, 16.54 + 2.878144))
  }

  /// By hand: 1…5 has mean 3, sd √2.5; p90 interpolates 4 + 0.6 × (5 − 4) = 4.6; one value
  /// has no spread and no interval.
  @Test func handWorkedValues() {
    let summary = SampleSummary([5, 1, 4, 2, 3])
    #expect(summary.mean == 3)
    #expect(Self.close(summary.standardDeviation, 2.5.squareRoot()))
    #expect(Self.close(summary.percentile(90), 4.6))
    #expect(Self.close(SampleSummary.tQuantile(0.95, degreesOfFreedom: 4), 2.776445))
    #expect(Self.close(SampleSummary.tQuantile(0.99, degreesOfFreedom: 10), 3.169273))
    let single = SampleSummary([0.42])
    #expect(single.mean == 0.42 && single.standardDeviation == 0 && single.halfWidth == 0)
  }

  /// The two samples of Wikipedia's Welch's t-test example: t = 2.2255, ν = 24.52,
  /// p = 0.0355, difference 2.22 with 95 % interval ±2.0565 (checked with an independent
  /// implementation).
  @Test func welchTest() throws {
    let a = SampleSummary([19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0])
    let b = SampleSummary([
      28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9,
      13.3,
    ])
    let test = WelchTest(a, b)
    #expect(Self.close(test.difference, 2.22))
    #expect(Self.close(test.t, 2.225512, 1e-5))
    #expect(Self.close(test.degreesOfFreedom, 24.524635, 1e-5))
    #expect(Self.close(try #require(test.pValue), 0.035485, 1e-5))
    #expect(Self.close(test.halfWidth, 2.056459, 1e-5))
    #expect(test.isSignificant(at: 0.05) && !test.isSignificant(at: 0.01))
    #expect(WelchTest(b, a).t == -test.t)
  }

  @Test func degenerateSamples() {
    let same = WelchTest(SampleSummary([1, 1, 1]), SampleSummary([1, 1]))
    #expect(same.pValue == 1 && same.difference == 0)
    let apart = WelchTest(SampleSummary([1, 1, 1]), SampleSummary([2, 2]))
    #expect(apart.pValue == 0 && apart.isSignificant())
    #expect(WelchTest(SampleSummary([1]), SampleSummary([2, 3])).pValue == nil)
  }
}
