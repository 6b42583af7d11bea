import CacheCore
import Engine

/// Whether the real swift-corelibs-foundation classes are what `import Foundation` gives
/// (Linux); on Darwin they are Apple's closed implementations, which the presets do not model.
#if os(Linux)
  let foundationIsOpenSource = true
#else
  let foundationIsOpenSource = false
#endif

let oracleSkipMessage =
  "NSCache/URLCache here are Apple's closed implementations; the presets model swift-corelibs-foundation (Linux)"

/// Seeded workload helpers shared by the differential tests.
struct WorkloadRandom {
  var generator: SplitMix64

  init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + generator.next(below: range.count)
  }

  mutating func chance(_ probability: Double) -> Bool { generator.nextUnit() < probability }

  /// A skewed index in 0..<count (about Zipf-like: low indices much more often).
  mutating func skewed(_ count: Int) -> Int {
    let unit = generator.nextUnit()
    return min(count - 1, Int(Double(count) * unit * unit * unit))
  }
}

/// Feeds one row to an engine and says whether it was a hit.
func engineRow(
  _ engine: CacheEngine, key: UInt64, size: Int64, cost: Int64, operation: Request.Operation, time: Int64,
  url: String? = nil, storedSize: Int64 = -1
) throws -> Bool {
  var attributes = RequestAttributes()
  attributes.cost = cost
  attributes.storedSize = storedSize
  if let url { attributes.url = URLKey(parsing: url) }
  let before = engine.stats.hits
  try engine.process(Request(time: time, key: key, size: size, operation: operation), attributes)
  return engine.stats.hits > before
}
