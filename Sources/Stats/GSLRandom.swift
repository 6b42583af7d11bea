import CGSL

/// A seeded Mersenne Twister (MT19937) from GSL: the source of randomness for synthetic
/// traces. The same seed always yields the same sequence.
public final class GSLRandom {
  let generator: UnsafeMutablePointer<gsl_rng>

  /// Creates a generator seeded with `seed` (0 is replaced by GSL's default seed, as GSL does).
  public init(seed: UInt64) {
    _ = GSL.configured
    guard let generator = gsl_rng_alloc(cachelab_gsl_rng_mt19937()) else {
      preconditionFailure("gsl_rng_alloc failed: out of memory")
    }
    self.generator = generator
    gsl_rng_set(generator, UInt(truncatingIfNeeded: seed))
  }

  deinit {
    gsl_rng_free(generator)
  }

  /// A uniform double in [0, 1).
  public func uniform() -> Double { gsl_rng_uniform(generator) }

  /// A lognormal variate with log-mean `mu` and log-standard-deviation `sigma`.
  public func lognormal(mu: Double, sigma: Double) -> Double {
    gsl_ran_lognormal(generator, mu, sigma)
  }

  /// An exponential variate with mean `mean`.
  public func exponential(mean: Double) -> Double {
    gsl_ran_exponential(generator, mean)
  }

  /// A Pareto variate with shape `shape` and scale (minimum) `scale`.
  public func pareto(shape: Double, scale: Double) -> Double {
    gsl_ran_pareto(generator, shape, scale)
  }

  /// A uniform integer in `0..<bound` (`bound` > 0). Bounds up to 2^32 − 1 take GSL's
  /// `gsl_rng_uniform_int` (one draw, usually); larger ones — beyond MT19937's 32-bit range,
  /// where GSL fails — join two draws into 64 bits, rejecting the top remainder so every value
  /// is equally likely.
  public func integer(below bound: UInt) -> UInt {
    precondition(bound > 0, "a uniform integer needs a positive bound")
    if bound <= UInt(UInt32.max) { return gsl_rng_uniform_int(generator, bound) }
    let remainder = (UInt.max % bound + 1) % bound  // 2^64 mod bound
    while true {
      let value = UInt(gsl_rng_get(generator)) << 32 | UInt(gsl_rng_get(generator) & 0xFFFF_FFFF)
      if value <= UInt.max - remainder { return value % bound }
    }
  }
}
