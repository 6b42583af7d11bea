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
    // Each stack pass's final counts, once; then the policy runs in grid order, then the
    // configured engines.
    var passCounts: [Int: [(counters: MissCounters, objects: Int, peakObjects: Int)]] = [:]
    for (index, target) in targets.enumerated() {
      guard let pass = Self.stackPass(target) else { continue }
      if let change = pass.traceChange {
        throw .trace(TraceError(.io, path: config.tracePath, "the trace changed while being read: \(change)"))
      }
      if config.verifyInvariants, let violation = pass.checkInvariants() {
        throw .invariant(policy: caches.targetLabels[index], capacity: 0, InvariantViolation(violation))
      }
      passCounts[index] = pass.finalCounts()
    }
    var results: [CacheResult] = []
    var simulated = 0
    for (index, cell) in cells.enumerated() {
      let source = caches.sources[index]
      var stats: EngineStats
      let engine: CacheEngine?
      if let counts = passCounts[source.target]?[source.cache] {
        engine = nil
        stats = EngineStats(policyRun: counts.counters)
      } else {
        let checkedEngine = try checked(engines[simulated], cell.policy.description, capacity: cell.capacity)
        simulated += 1
        engine = checkedEngine
        stats = checkedEngine.stats
      }
      if sampled {
        let own = targets[source.target] as? SubsampledTarget
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
      let seconds = clock.seconds(of: source.target) / Double(Self.stackPass(targets[source.target])?.cacheCount ?? 1)
      if let engine {
        results.append(
          CacheResult(
            policyRun: engine, stats: stats, policy: cell.policy, capacitySpec: cell.capacitySpec,
            capacity: cell.capacity, seconds: seconds, cell: cell.cell, sampleRate: cell.rate))
      } else if let counts = passCounts[source.target]?[source.cache] {
        let structureBytes = cell.policy.entry.descriptor.lruStack?.structureBytes(cell.capacity, counts.peakObjects)
        let tier = TierConfiguration(
          policy: cell.policy, capacity: cell.capacity, unit: config.ignoreSize ? .count : .bytes)
        results.append(
          CacheResult(
            policyRun: .policyRun(tier), policy: cell.policy, capacity: cell.capacity, stats: stats,
            memoryObjects: counts.objects, structureBytes: Int64(structureBytes ?? 0), capacitySpec: cell.capacitySpec,
            seconds: seconds, cell: cell.cell, sampleRate: cell.rate))
      }
    }
    for (offset, entry) in engineCells.enumerated() {
      let index = simulated + offset
      let target = caches.sources[cells.count + offset].target
      let engine = try checked(engines[index], entry.labeled.label, capacity: 0)
      results.append(
        CacheResult(
          engine, label: entry.labeled.label, configuration: entry.labeled.configuration,
          seconds: clock.seconds(of: target), cell: entry.cell, sampleRate: config.slice.sampleRate))
    }
    var result = RunResult(
      configuration: config, summary: plan.summaryIsPrivate ? nil : summary, replayedRequests: replayed,
      otherRows: tally.otherRows,
      warmupRequests: tally.warmupRequests, caches: results, wallSeconds: tally.wallSeconds,
      windows: tally.windows?.records ?? [])
    result.peakMemoryBytes = Self.peakResidentBytes()
    result.traceNotes = tally.traceNotes
    result.observed = tally.observed
    result.methodNote = caches.methodNote
    return result
  }

  /// The stack pass a target is, directly or through its sample.
  static func stackPass(_ target: any ReplayTarget) -> StackCurveTarget? {
    (target as? StackCurveTarget) ?? ((target as? SubsampledTarget)?.inner as? StackCurveTarget)
  }
}
