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

  @Test func tooFewOrMismatchedPointsHaveNoFit() {
    #expect(LinearFit(x: [1], y: [1]) == nil)
    #expect(LinearFit(x: [1, 2], y: [1]) == nil)
  }
}
