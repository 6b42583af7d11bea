import CacheCore
import Engine
import Traces

extension Replayer {
  /// The run's result: checks that the pre-passes saw the trace the pass saw, runs each
  /// cache's self-check when asked, and scales sampled counts back to the whole trace.
  func assemble(_ plan: ReplayPlan, _ caches: ReplayCaches, _ tally: ReplayTally) throws(ReplayError) -> RunResult {
    let config = configuration
    let (reader, summary, nextAccess, streamRate) = (plan.reader, plan.summary, plan.nextAccess, plan.streamRate)
    let (cells, simulations, targets) = (caches.cells, caches.simulations, caches.targets)
    let (engines, engineCells) = (caches.engines, caches.engineCells)
    let (replayed, countedRequests, countedBytes, clock) =
      (tally.replayed, tally.countedRequests, tally.countedBytes, tally.clock)
    if let nextAccess, nextAccess.count != replayed {
      throw .trace(
        TraceError(
          .io, path: config.tracePath,
          "the trace changed while being read: \(nextAccess.count) requests in the pre-pass, \(replayed) in the replay")
      )
    }
    if let summary, streamRate == config.slice.sampleRate, summary.requests != replayed {
      throw .trace(
        TraceError(
          .io, path: config.tracePath,
          "the trace changed while being read: \(summary.requests) requests in the pre-pass, \(replayed) in the replay")
      )
    }

    // SHARDS: each sampled miss stands for 1/R misses; requests scale by how many requests of
    // the whole trace each replayed one stands for (the SHARDS-adj correction of the rate).
    // A cache that filtered a sparser sample for itself scales by what it kept.
    let sampled = config.slice.sampleRate < 1
    let sourceRequests = Double(TraceSlice.sourceRequests(of: reader) ?? replayed)
    func scaled(_ value: Int64, _ factor: Double) -> Int64 {
      factor == 1 ? value : Int64((Double(value) * factor).rounded())
    }
    var results: [CacheResult] = []
    for (index, entry) in cells.enumerated() {
      let own = targets[index] as? SubsampledTarget
      let requestScale = sampled ? sourceRequests / Double(max(own?.keptRequests ?? replayed, 1)) : 1
      let missScale = sampled ? 1 / entry.rate : 1
      let simulation = simulations[index]
      if config.verifyInvariants {
        do throws(InvariantViolation) {
          try simulation.checkInvariants()
        } catch {
          throw .invariant(policy: entry.policy.description, capacity: entry.capacity, error)
        }
      }
      var counters = simulation.counters
      let requests = scaled(own?.countedGets ?? countedRequests, requestScale)
      let requestBytes = scaled(own?.countedBytes ?? countedBytes, requestScale)
      if sampled {
        counters.misses = min(requests, scaled(counters.misses, missScale))
        counters.missBytes = min(requestBytes, scaled(counters.missBytes, missScale))
        counters.evictions = scaled(counters.evictions, missScale)
        counters.rejected = scaled(counters.rejected, missScale)
        counters.expired = scaled(counters.expired, missScale)
        counters.declined = min(requests, scaled(counters.declined, missScale))
      }
      results.append(
        CacheResult(
          policy: entry.policy, capacitySpec: entry.capacitySpec, capacity: entry.capacity, requests: requests,
          requestBytes: requestBytes, counters: counters, replaySeconds: clock.seconds(of: index),
          cell: entry.cell, storageBytes: Int64(simulation.storageBytes), sampleRate: entry.rate))
    }
    var engineResults: [EngineResult] = []
    for (offset, engine) in engines.enumerated() {
      let labeled = engineCells[offset].labeled
      if config.verifyInvariants {
        do throws(InvariantViolation) {
          try engine.checkInvariants()
        } catch {
          throw .invariant(policy: labeled.label, capacity: 0, error)
        }
      }
      engineResults.append(
        EngineResult(
          label: labeled.label, configuration: labeled.configuration, stats: engine.stats,
          memoryObjects: engine.memoryObjects, diskObjects: engine.diskObjects,
          replaySeconds: clock.seconds(of: simulations.count + offset), cell: engineCells[offset].cell))
    }
    var result = RunResult(
      configuration: config, summary: summary, replayedRequests: replayed, otherRows: tally.otherRows,
      warmupRequests: tally.warmupRequests, caches: results, engines: engineResults, wallSeconds: tally.wallSeconds,
      windows: tally.windows?.records ?? [])
    result.peakMemoryBytes = Self.peakResidentBytes()
    return result
  }
}
