/// Knuth's MMIX 64-bit linear congruential generator, the generator libCacheSim's
/// randomised policies share (`next_rand`).
///
/// Each simulated cache owns one, seeded with the run's `--seed` (libCacheSim resets it to
/// 0 for every cache size, so seed 0 reproduces its numbers). Returns the new state.
@frozen
public struct MMIXRandom: Sendable {
  @usableFromInline var state: UInt64

  @inlinable
  public init(seed: UInt64) {
    state = seed
  }

  /// Advances and returns the new 64-bit state.
  @inlinable
  public mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state
  }
}
