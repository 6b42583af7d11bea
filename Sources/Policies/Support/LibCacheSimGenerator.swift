import CacheCore

/// The generator a libCacheSim-derived randomised policy draws from: the MMIX generator of the
/// libCacheSim whose unit tests are in `../shared/reference` (seeded with `--seed`), or current
/// libCacheSim's lehmer64 (state 0xdeadbeef + `--seed`, as the libcachesim package). O(1) per
/// draw; one branch.
@usableFromInline
enum LibCacheSimGenerator {
  case mmix(MMIXRandom)
  case lehmer64(Lehmer64)

  /// The generators' names, as a policy's `generator` parameter takes them.
  static let names = ["mmix", "lehmer64"]

  init(named name: String, seed: UInt64) {
    self =
      name == "lehmer64"
      ? .lehmer64(Lehmer64(state: Lehmer64.libCacheSimState &+ seed)) : .mmix(MMIXRandom(seed: seed))
  }

  /// The next 64-bit draw.
  @inlinable
  mutating func next() -> UInt64 {
    switch self {
    case .mmix(var generator):
      let value = generator.next()
      self = .mmix(generator)
      return value
    case .lehmer64(var generator):
      let value = generator.next()
      self = .lehmer64(generator)
      return value
    }
  }
}
