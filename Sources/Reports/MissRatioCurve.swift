import CacheCore
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
      for cache in run.policyRuns {
        let name = cache.label
        if samples[name] == nil { order.append(name) }
        samples[name, default: [:]][cache.capacityLimit ?? 0, default: []].append(1 - cache.hitRatio)
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

extension MissRatioCurve {
  /// The sweep as a matrix (header first): one row per policy, one column per capacity, miss
  /// ratios as percentages with two decimals, as every table prints ratios ("-" where a policy
  /// lacks that size).
  public static func matrix(_ runs: [RunResult]) -> [[String]] {
    guard let first = runs.first else { return [] }
    let curves = curves(runs)
    let sizes = Set(curves.flatMap { $0.points.map(\.capacity) }).sorted()
    var rows = [["miss ratio"] + sizes.map { capacityLabel($0, objectMode: first.configuration.ignoreSize) }]
    for curve in curves {
      let byCapacity = Dictionary(uniqueKeysWithValues: curve.points.map { ($0.capacity, $0.missRatio) })
      rows.append(
        [curve.policy] + sizes.map { size in byCapacity[size].map { Decimal.fixed($0 * 100, 2) + " %" } ?? "-" })
    }
    return rows
  }

  /// One line naming the policy with the lowest miss ratio at each capacity (ties all named),
  /// or nil with fewer than two policies.
  public static func best(_ runs: [RunResult]) -> String? {
    guard let first = runs.first else { return nil }
    let curves = curves(runs)
    guard curves.count > 1 else { return nil }
    let sizes = Set(curves.flatMap { $0.points.map(\.capacity) }).sorted()
    let parts = sizes.map { size -> String in
      let entries = curves.compactMap { curve in
        curve.points.first { $0.capacity == size }.map { (curve.policy, $0.missRatio) }
      }
      let lowest = entries.map(\.1).min() ?? 0
      let names = entries.filter { $0.1 == lowest }.map(\.0).joined(separator: " = ")
      let label = capacityLabel(size, objectMode: first.configuration.ignoreSize)
      return "\(label): \(names) (hit ratio \(Decimal.fixed((1 - lowest) * 100, 2)) %)"
    }
    return "best at each size — " + parts.joined(separator: "; ")
  }

  /// A capacity as the tables print it: `1.04 MiB`, or `120 obj` in object mode.
  public static func capacityLabel(_ capacity: Int64, objectMode: Bool) -> String {
    objectMode ? "\(capacity) obj" : ByteCount.format(capacity)
  }
}
