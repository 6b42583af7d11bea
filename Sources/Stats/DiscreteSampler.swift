import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Samples indices `0..<n` with given weights in O(1) per draw (GSL's alias table,
/// `gsl_ran_discrete`). Preprocessing is O(n) time and memory.
public final class DiscreteSampler {
  private let table: UnsafeMutablePointer<gsl_ran_discrete_t>
  /// Number of outcomes.
  public let count: Int

  /// Builds the table for `weights` (non-negative, not all zero).
  public init(weights: [Double]) {
    _ = GSL.configured
    precondition(!weights.isEmpty, "DiscreteSampler needs at least one weight")
    guard let table = weights.withUnsafeBufferPointer({ gsl_ran_discrete_preproc($0.count, $0.baseAddress) }) else {
      preconditionFailure("gsl_ran_discrete_preproc failed (negative or all-zero weights)")
    }
    self.table = table
    count = weights.count
  }

  /// The Zipf distribution over ranks `0..<n`: rank k has weight 1/(k+1)^alpha.
  public convenience init(zipfObjects n: Int, alpha: Double) {
    var weights = [Double](repeating: 0, count: n)
    for rank in 0..<n { weights[rank] = 1.0 / pow(Double(rank + 1), alpha) }
    self.init(weights: weights)
  }

  deinit {
    gsl_ran_discrete_free(table)
  }

  /// Draws one index using `random`.
  @inline(__always)
  public func sample(_ random: GSLRandom) -> Int {
    Int(gsl_ran_discrete(random.generator, table))
  }
}
