import CacheCore
import Engine

/// Something the replayer feeds batch by batch: a policy simulation or a whole engine.
/// Used by one thread at a time.
protocol ReplayTarget: AnyObject, Sendable {
  func replay(_ batch: RequestBatch, range: Range<Int>)
  func resetCounters()
  /// Counted misses so far (since the last reset).
  var misses: Int64 { get }
  /// Bytes of the counted misses so far.
  var missBytes: Int64 { get }
  /// The error that stopped the target, if any (checked after each batch).
  var failure: EngineError? { get }
}

/// A policy simulation as a replay target.
final class PolicyTarget: ReplayTarget, @unchecked Sendable {
  let simulation: any CacheSimulation

  init(_ simulation: any CacheSimulation) {
    self.simulation = simulation
  }

  func replay(_ batch: RequestBatch, range: Range<Int>) { simulation.replay(batch, range: range) }
  func resetCounters() { simulation.resetCounters() }
  var misses: Int64 { simulation.counters.misses }
  var missBytes: Int64 { simulation.counters.missBytes }
  var failure: EngineError? { nil }
}

/// A cache engine as a replay target: requests with their attributes, one at a time.
final class EngineTarget: ReplayTarget, @unchecked Sendable {
  let engine: CacheEngine
  private(set) var failure: EngineError?

  init(_ engine: CacheEngine) {
    self.engine = engine
  }

  func replay(_ batch: RequestBatch, range: Range<Int>) {
    guard failure == nil else { return }
    let engine = engine
    failure = batch.withRequests { requests in
      batch.withAttributes { attributes in
        do throws(EngineError) {
          // Attributes are read in place; rows without any go to the engine as a range.
          if let attributes {
            for index in range { try engine.process(requests[index], attributes[index]) }
          } else {
            try engine.replay(requests, range: range)
          }
          return nil
        } catch {
          return error
        }
      }
    }
  }

  func resetCounters() { engine.resetStats() }
  var misses: Int64 { engine.stats.misses }
  var missBytes: Int64 { engine.stats.missBytes }
}
