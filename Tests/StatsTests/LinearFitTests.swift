import Stats
import Testing

/// Least squares through GSL against values worked by hand.
@Suite struct LinearFitTests {
  @Test func anExactLineIsRecovered() throws {
    let fit = try #require(LinearFit(x: [0, 1, 2, 3], y: [2, 5, 8, 11]))
    #expect(abs(fit.slope - 3) < 1e-12 && abs(fit.intercept - 2) < 1e-12 && abs(fit.rSquared - 1) < 1e-12)
  }

  /// x = 1…4, y = 2, 4, 5, 4: Sxy = 3.5, Sxx = 5, so slope 0.7, intercept 3.75 − 1.75 = 2;
  /// residual sum of squares 2.3 of a total 4.75, so R² = 1 − 2.3/4.75.
  @Test func aNoisyLineMatchesTheHandWorkedFit() throws {
    let fit = try #require(LinearFit(x: [1, 2, 3, 4], y: [2, 4, 5, 4]))
    #expect(abs(fit.slope - 0.7) < 1e-12 && abs(fit.intercept - 2) < 1e-12)
    #expect(abs(fit.rSquared - (1 - 2.3 / 4.75)) < 1e-12)
  }

  /// The same points: s² = 2.3 / 2 = 1.15, se(slope) = √(s² / Sxx) = √(1.15 / 5), se(intercept)
  /// = √(s² (1/n + x̄² / Sxx)) = √1.725; t(0.975, 2) = 4.302653 (Student's table).
  @Test func standardErrorsAndIntervalsMatchTheHandWorkedValues() throws {
    let fit = try #require(LinearFit(x: [1, 2, 3, 4], y: [2, 4, 5, 4]))
    #expect(abs(fit.slopeError - (1.15 / 5).squareRoot()) < 1e-12)
    #expect(abs(fit.interceptError - 1.725.squareRoot()) < 1e-12)
    let intervals = try #require(fit.intervals())
    #expect(abs(intervals.slope.upperBound - (0.7 + 4.302653 * (1.15 / 5).squareRoot())) < 1e-5)
    #expect(abs(intervals.intercept.lowerBound - (2 - 4.302653 * 1.725.squareRoot())) < 1e-5)
    #expect(LinearFit(x: [1, 2], y: [1, 3])?.intervals() == nil, "two points leave no degrees of freedom")
  }

  /// Equal weights change nothing; a weight of 2 moves the estimates as a repeated point would.
  @Test func weightsActAsRepeatedPoints() throws {
    let plain = try #require(LinearFit(x: [1, 2, 3, 4], y: [2, 4, 5, 4]))
    let equal = try #require(LinearFit(x: [1, 2, 3, 4], y: [2, 4, 5, 4], weights: [3, 3, 3, 3]))
    #expect(abs(plain.slope - equal.slope) < 1e-12 && abs(plain.slopeError - equal.slopeError) < 1e-12)
    let weighted = try #require(LinearFit(x: [1, 2, 3, 4], y: [2, 4, 5, 4], weights: [1, 1, 2, 1]))
    let repeated = try #require(LinearFit(x: [1, 2, 3, 3, 4], y: [2, 4, 5, 5, 4]))
    #expect(abs(weighted.slope - repeated.slope) < 1e-12 && abs(weighted.intercept - repeated.intercept) < 1e-12)
    #expect(LinearFit(x: [1, 2, 3], y: [1, 2, 3], weights: [1, 0, 1]) == nil)
  }

  @Test func tooFewOrMismatchedPointsHaveNoFit() {
    #expect(LinearFit(x: [1], y: [1]) == nil)
    #expect(LinearFit(x: [1, 2], y: [1]) == nil)
  }
}
