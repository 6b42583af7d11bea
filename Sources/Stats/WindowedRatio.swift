/// A ratio measured over consecutive windows (hits / requests per window): its request-weighted
/// mean (Σ numerators / Σ denominators), the weighted spread of the windows, and a confidence
/// interval and t-test of "mean = 0" over batch means (``BatchMeans``), so that
/// autocorrelated windows do not narrow the interval. O(k log k) for k windows.
public struct WindowedRatio: Sendable, Equatable {
  /// Number of windows.
  public let windows: Int
  /// The batches the interval is computed over.
  public let batches: BatchMeans
  /// The ratio estimator over the batches: ``MeanTest/mean`` is Σ numerators / Σ denominators.
  public let test: MeanTest
  /// Request-weighted standard deviation of the windows' ratios.
  public let windowStandardDeviation: Double

  /// Summarises windows with these numerators and denominators (positive), at `confidence`.
  public init(numerators: [Double], denominators: [Double], confidence: Double = 0.95) {
    precondition(!numerators.isEmpty, "at least one window")
    windows = numerators.count
    batches = BatchMeans(numerators: numerators, denominators: denominators)
    test = MeanTest(numerators: batches.numerators, denominators: batches.denominators, confidence: confidence)
    windowStandardDeviation =
      batches.windowsPerBatch == 1
      ? test.standardDeviation
      : MeanTest(numerators: numerators, denominators: denominators).standardDeviation
  }

  /// The weighted mean.
  public var mean: Double { test.mean }
  /// Ratios of the batches (for a rank test of the same samples).
  public var batchRatios: [Double] { zip(batches.numerators, batches.denominators).map { $0 / $1 } }
}
