import CacheCore
import Engine
import Traces

extension Replayer {
  /// The run's result: checks that the pre-passes saw the trace the pass saw, runs each
  /// cache's self-check when asked, and scales sampled counts back to the whole trace.
  func assemble(_ plan: ReplayPlan, _ caches: ReplayCaches, _ tally: ReplayTally) throws(ReplayError) -> RunResult {
    let config = configuration
    let (reader, summary, nextAccess, streamRate) = (plan.reader, plan.summary, plan.nextAccess, plan.streamRate)
    let (cells, engines, targets, engineCells) = (caches.cells, caches.engines, caches.targets, caches.engineCells)
    let (replayed, clock) = (tally.replayed, tally.clock)
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
    func checked(_ engine: CacheEngine, _ name: String, capacity: Int64) throws(ReplayError) -> CacheEngine {
      guard config.verifyInvariants else { return engine }
      do throws(InvariantViolation) {
        try engine.checkInvariants()
      } catch {
        throw .invariant(policy: name, capacity: capacity, error)
      }
      return engine
    }
    // The policy runs (the first engines), then the configured engines.
    var results: [CacheResult] = []
    for (index, cell) in cells.enumerated() {
      let engine = try checked(engines[index], cell.policy.description, capacity: cell.capacity)
      var stats = engine.stats
      if sampled {
        let own = targets[index] as? SubsampledTarget
        let requestScale = sourceRequests / Double(max(own?.keptRequests ?? replayed, 1))
        let missScale = 1 / cell.rate
        let (misses, missBytes) = (stats.misses, stats.missBytes)
        stats.requests = scaled(stats.requests, requestScale)
        stats.requestBytes = scaled(stats.requestBytes, requestScale)
        stats.memoryHits = stats.requests - min(stats.requests, scaled(misses, missScale))
        stats.hitBytes = stats.requestBytes - min(stats.requestBytes, scaled(missBytes, missScale))
        stats.memoryEvictions = scaled(stats.memoryEvictions, missScale)
        stats.rejected = scaled(stats.rejected, missScale)
        stats.expired = scaled(stats.expired, missScale)
        stats.declined = min(stats.requests, scaled(stats.declined, missScale))
      }
      results.append(
        CacheResult(
          policyRun: engine, stats: stats, policy: cell.policy, capacitySpec: cell.capacitySpec,
          capacity: cell.capacity, seconds: clock.seconds(of: index), cell: cell.cell, sampleRate: cell.rate))
    }
    for (offset, entry) in engineCells.enumerated() {
      let index = cells.count + offset
      let engine = try checked(engines[index], entry.labeled.label, capacity: 0)
      results.append(
        CacheResult(
          engine, label: entry.labeled.label, configuration: entry.labeled.configuration,
          seconds: clock.seconds(of: index), cell: entry.cell, sampleRate: config.slice.sampleRate))
    }
    var result = RunResult(
      configuration: config, summary: summary, replayedRequests: replayed, otherRows: tally.otherRows,
      warmupRequests: tally.warmupRequests, caches: results, wallSeconds: tally.wallSeconds,
      windows: tally.windows?.records ?? [])
    result.peakMemoryBytes = Self.peakResidentBytes()
    result.traceNotes = tally.traceNotes
    result.observed = tally.observed
    return result
  }
}
