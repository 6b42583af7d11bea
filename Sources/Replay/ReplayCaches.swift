import CacheCore
import Engine
import Policies
import Traces

/// The caches of a run: one simulation per (policy, size) cell of the run's shard, the
/// engines, and the replay targets over them (a cache sampled more sparsely than the pass
/// reads its own ``SampleGroup``).
struct ReplayCaches {
  struct Cell {
    var cell: Int
    var policy: PolicySpec
    var capacitySpec: CapacitySpec
    var capacity: Int64
    var rate: Double
  }

  var simulations: [any CacheSimulation]
  var cells: [Cell]
  var engines: [CacheEngine]
  var engineCells: [(cell: Int, labeled: LabeledEngine)]
  /// Simulations first, then engines, in the order of ``cells`` and ``engineCells``.
  var targets: [any ReplayTarget]
  var sampleGroups: [SampleGroup]
}

extension Replayer {
  /// Builds every cache of the plan (engines' fractional tiers resolved against the summary).
  func makeCaches(_ plan: ReplayPlan) throws(ReplayError) -> ReplayCaches {
    let config = configuration
    let summary = plan.summary
    let resolved = plan.capacities
    let capacities = resolved.map(\.capacity)
    let streamRate = plan.streamRate
    var simulations: [any CacheSimulation] = []
    var cells: [ReplayCaches.Cell] = []
    for (policyIndex, policy) in config.policies.enumerated() {
      for (capacityIndex, capacity) in capacities.enumerated() {
        let cell = policyIndex * capacities.count + capacityIndex
        guard config.runs(cell: cell) else { continue }
        cells.append(
          ReplayCaches.Cell(
            cell: cell, policy: policy, capacitySpec: config.capacities[capacityIndex], capacity: capacity,
            rate: resolved[capacityIndex].rate))
        do throws(ConfigurationError) {
          let context = PolicyContext(seed: config.seed, objectMode: config.ignoreSize)
          simulations.append(
            try policy.entry.makeSimulation(
              capacity: capacity, parameters: policy.parameters, context: context, timeToLive: config.timeToLive,
              admission: try policy.admission?.make(capacity: capacity, context: context)))
        } catch {
          throw .configuration(error)
        }
      }
    }

    var engines: [CacheEngine] = []
    var engineCells: [(cell: Int, labeled: LabeledEngine)] = []
    for (offset, labeled) in config.engines.enumerated() {
      let cell = config.policies.count * capacities.count + offset
      guard config.runs(cell: cell) else { continue }
      var labeled = labeled
      if labeled.configuration.needsWorkingSet, let summary {
        labeled.configuration = labeled.configuration.resolvingFractions(
          workingSet: summary.workingSet(objectMode: config.ignoreSize))
      }
      engineCells.append((cell, labeled))
      do throws(EngineError) {
        engines.append(
          try CacheEngine(
            labeled.configuration, seed: config.seed, rowsCarryAttributes: plan.reader.traits.hasAttributes))
      } catch {
        if case .configuration(let inner) = error { throw .configuration(inner) }
        throw .engine(label: labeled.label, error)
      }
    }
    // Caches at a lower rate than the pass share one gathered sample per rate.
    let rates = cells.map(\.rate) + engines.map { _ in config.slice.sampleRate }
    var groups: [Double: SampleGroup] = [:]
    for rate in Set(rates) where rate < streamRate {
      groups[rate] = SampleGroup(threshold: TraceSlice.threshold(rate: rate), batchCapacity: config.batchSize)
    }
    let sampleGroups = Array(groups.values)
    let targets: [any ReplayTarget] = zip(
      simulations.map { PolicyTarget($0) as any ReplayTarget } + engines.map { EngineTarget($0) as any ReplayTarget },
      rates
    ).map { target, rate in
      groups[rate].map { SubsampledTarget(target, group: $0) } ?? target
    }
    return ReplayCaches(
      simulations: simulations, cells: cells, engines: engines, engineCells: engineCells, targets: targets,
      sampleGroups: sampleGroups)
  }
}
