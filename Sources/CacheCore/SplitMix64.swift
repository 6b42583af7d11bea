/// A small, fast, seedable random number generator (SplitMix64) for randomised policies.
///
/// Value type with 8 bytes of state: a policy that owns one replays identically for the
/// same seed. Not for statistics (use the GSL generators in `Stats`).
@frozen
public struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  @inlinable
  public init(seed: UInt64) {
    state = seed
  }

  /// Returns the next 64 random bits.
  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    return KeyHash.mix(state)
  }

  /// Returns a uniform integer in `0..<bound` (Lemire's multiply-shift; `bound` > 0).
  @inlinable
  public mutating func next(below bound: Int) -> Int {
    Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// Returns a uniform double in [0, 1).
  @inlinable
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }
}
