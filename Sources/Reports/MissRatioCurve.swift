import Replay

/// One policy's miss ratio against cache size over a set of runs, each capacity's value the
/// mean over the runs (repeats). O(caches).
public struct MissRatioCurve: Sendable {
  public var policy: String
  /// (capacity in bytes or objects, mean miss ratio), by increasing capacity.
  public var points: [(capacity: Int64, missRatio: Double)]

  /// The curves of `runs`, policies in the order they first appear.
  public static func curves(_ runs: [RunResult]) -> [MissRatioCurve] {
    var order: [String] = []
    var samples: [String: [Int64: [Double]]] = [:]
    for run in runs {
      for cache in run.caches {
        let name = cache.policy.description
        if samples[name] == nil { order.append(name) }
        samples[name, default: [:]][cache.capacity, default: []].append(1 - cache.hitRatio)
      }
    }
    return order.map { name in
      let points = (samples[name] ?? [:]).sorted { $0.key < $1.key }.map { capacity, ratios in
        (capacity: capacity, missRatio: ratios.reduce(0, +) / Double(ratios.count))
      }
      return MissRatioCurve(policy: name, points: points)
    }
  }
}
