import CacheCore
import Policies

/// Drives a registered policy one request at a time through its ``CacheSimulation``.
final class PolicyDriver {
  let simulation: any CacheSimulation
  let capacity: Int64
  private let batch = RequestBatch(capacity: 1)

  init(_ spec: PolicySpec, capacity: Int64, seed: UInt64 = 7) throws {
    self.capacity = capacity
    let context = PolicyContext(seed: seed)
    simulation = try spec.entry.makeSimulation(
      capacity: capacity, parameters: spec.parameters, context: context,
      admission: try spec.admission?.make(capacity: capacity, context: context))
  }

  convenience init(_ text: String, capacity: Int64) throws {
    try self.init(PolicySpec(parsing: text), capacity: capacity)
  }

  /// Serves `request`; returns whether it hit.
  @discardableResult
  func serve(_ request: Request) -> Bool {
    let before = simulation.counters.misses
    batch.refill { buffer in
      buffer[0] = request
      return 1
    }
    simulation.replay(batch, range: 0..<1)
    return simulation.counters.misses == before
  }
}

/// A victim sink that remembers the evicted keys in order.
struct RecordingSink: VictimSink {
  var keys: [UInt64] = []
  mutating func record(_ victim: Victim) { keys.append(victim.key) }
}

/// `Request(key:size:)` shorthand.
func request(_ key: UInt64, size: Int64 = 1) -> Request {
  Request(key: key, size: size)
}
