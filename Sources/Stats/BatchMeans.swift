import CGSL

/// Batch means for autocorrelated windows: adjacent windows (numerator, denominator) are
/// merged in pairs while the lag-1 autocorrelation of their ratios exceeds ``limit(batches:)``
/// and at least ``minimumBatches`` batches would remain. Merging sums numerators and
/// denominators, so the ratio estimator over the batches equals the one over the windows.
/// O(k log k) for k windows.
public struct BatchMeans: Sendable, Equatable {
  /// Autocorrelation below which windows are treated as independent.
  public static let threshold = 0.1
  /// Merging stops before the batches would number fewer than this.
  public static let minimumBatches = 8

  /// The batches' numerators and denominators, in window order.
  public let numerators: [Double]
  public let denominators: [Double]
  /// Windows merged into each batch (the last batch may hold one more).
  public let windowsPerBatch: Int
  /// Lag-1 autocorrelation of the windows' ratios (0 when it is undefined).
  public let windowAutocorrelation: Double
  /// Lag-1 autocorrelation of the batches' ratios.
  public let autocorrelation: Double

  /// The autocorrelation that triggers merging for `k` batches: 0.1 or, when larger, the one-sided
  /// 5 % critical value 1.645/√k of an independent series' estimate, so that merging needs a
  /// correlation that is both material and evident.
  public static func limit(batches k: Int) -> Double {
    max(threshold, 1.645 / Double(max(k, 1)).squareRoot())
  }

  /// Batches `numerators` / `denominators` (denominators positive).
  public init(numerators: [Double], denominators: [Double]) {
    precondition(numerators.count == denominators.count, "one denominator per numerator")
    var numerators = numerators
    var denominators = denominators
    var perBatch = 1
    let initial = Self.lag1(numerators, denominators)
    var current = initial
    while current > Self.limit(batches: numerators.count), numerators.count / 2 >= Self.minimumBatches {
      (numerators, denominators) = (Self.merged(numerators), Self.merged(denominators))
      perBatch *= 2
      current = Self.lag1(numerators, denominators)
    }
    self.numerators = numerators
    self.denominators = denominators
    windowsPerBatch = perBatch
    windowAutocorrelation = initial
    autocorrelation = current
  }

  /// Whether the batches are still autocorrelated beyond the limit (too few windows to merge).
  public var isAutocorrelated: Bool { autocorrelation > Self.limit(batches: numerators.count) }

  /// Number of batches.
  public var count: Int { numerators.count }

  /// Lag-1 autocorrelation of the ratios (GSL; 0 for fewer than three values or no variance).
  public static func lag1(_ numerators: [Double], _ denominators: [Double]) -> Double {
    _ = GSL.configured
    let ratios = zip(numerators, denominators).map { $0 / $1 }
    guard ratios.count >= 3, let first = ratios.first, ratios.contains(where: { $0 != first }) else { return 0 }
    let value = ratios.withUnsafeBufferPointer { gsl_stats_lag1_autocorrelation($0.baseAddress, 1, $0.count) }
    return value.isFinite ? value : 0
  }

  /// Sums adjacent pairs; an odd last value joins the last pair.
  static func merged(_ values: [Double]) -> [Double] {
    var result: [Double] = []
    result.reserveCapacity(values.count / 2)
    var index = 0
    while index + 1 < values.count {
      result.append(values[index] + values[index + 1])
      index += 2
    }
    if index < values.count { result[result.count - 1] += values[index] }
    return result
  }
}
