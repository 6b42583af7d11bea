import CacheCore
import Stats
import Traces

/// A seeded synthetic workload: `requests` draws from a Zipf(`alpha`) popularity over
/// `objects` objects, each with a fixed size from `sizes`, arriving as a Poisson process
/// at `rate` requests per second.
///
/// Object ids are a bijective scramble of the popularity rank, so ids carry no hint of
/// popularity. Three independent GSL MT19937 streams derived from `seed` draw sizes,
/// popularity and arrival gaps: the same configuration always produces the same trace.
/// Memory: O(objects) (the alias table and the size of each object).
public struct ZipfWorkload: Sendable {
  public var objects: Int
  public var requests: Int64
  public var alpha: Double
  public var seed: UInt64
  public var sizes: SizeDistribution
  public var rate: Double

  public init(
    objects: Int, requests: Int64, alpha: Double, seed: UInt64,
    sizes: SizeDistribution = .standard, rate: Double = 1000
  ) {
    self.objects = objects
    self.requests = requests
    self.alpha = alpha
    self.seed = seed
    self.sizes = sizes
    self.rate = rate
  }

  /// The object id of popularity rank `rank` (0 = most popular).
  public static func key(ofRank rank: Int) -> UInt64 {
    KeyHash.mix(UInt64(rank) &+ 1)
  }

  /// Writes every request to `writer` (without committing it), calling `progress` with
  /// the number written every 2^20 requests.
  public func generate(into writer: any TraceWriter, progress: (Int64) -> Void = { _ in }) throws(FileError) {
    let sizeRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x51_7e))
    let rankRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x7a_4b))
    let timeRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x71_3e))
    var objectSizes = [Int64](repeating: 0, count: objects)
    for rank in 0..<objects { objectSizes[rank] = sizes.sample(sizeRandom) }
    let popularity = DiscreteSampler(zipfObjects: objects, alpha: alpha)
    let meanGapMicros = 1e6 / rate
    var clock = 0.0
    for index in 0..<requests {
      let rank = popularity.sample(rankRandom)
      try writer.write(Request(time: Int64(clock), key: Self.key(ofRank: rank), size: objectSizes[rank]))
      clock += timeRandom.exponential(mean: meanGapMicros)
      if index & 0xF_FFFF == 0xF_FFFF { progress(index + 1) }
    }
  }
}
