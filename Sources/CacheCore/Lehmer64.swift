/// Lemire's lehmer64 generator: a 128-bit state multiplied by 0xda942042e4dd58b5, returning
/// the state's high 64 bits. It is current libCacheSim's `next_rand` (the generator the
/// libcachesim package's randomised admissioners draw from), whose state starts at
/// 0xdeadbeef. O(1), no allocation.
@frozen
public struct Lehmer64: Sendable {
  @usableFromInline var high: UInt64
  @usableFromInline var low: UInt64
  @usableFromInline static let multiplier: UInt64 = 0xda94_2042_e4dd_58b5
  /// libCacheSim's initial state.
  public static let libCacheSimState: UInt64 = 0xdead_beef

  /// A generator whose 128-bit state is `state` (its high half 0).
  @inlinable
  public init(state: UInt64) {
    high = 0
    low = state
  }

  /// Advances the state and returns its high 64 bits.
  @inlinable
  public mutating func next() -> UInt64 {
    let product = low.multipliedFullWidth(by: Self.multiplier)
    high = high &* Self.multiplier &+ product.high
    low = product.low
    return high
  }
}
