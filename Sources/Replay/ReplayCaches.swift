import CacheCore
import Engine
import Traces

/// The caches of a run: one engine per (policy, size) cell of the run's shard (a plain
/// policy run), then the configured engines, and the replay targets over them (a cache
/// sampled more sparsely than the pass reads its own ``SampleGroup``).
struct ReplayCaches {
  struct Cell {
    var cell: Int
    var policy: PolicySpec
    var capacitySpec: CapacitySpec
    var capacity: Int64
    var rate: Double
  }

  /// Policy runs first, in the order of ``cells``, then engines, in the order of ``engineCells``.
  var engines: [CacheEngine]
  var cells: [Cell]
  var engineCells: [(cell: Int, labeled: LabeledEngine)]
  /// One per engine, in the same order.
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
    let attributes = plan.reader.traits.hasAttributes
    var engines: [CacheEngine] = []
    var cells: [ReplayCaches.Cell] = []
    for (policyIndex, policy) in config.policies.enumerated() {
      for (capacityIndex, capacity) in capacities.enumerated() {
        let cell = policyIndex * capacities.count + capacityIndex
        guard config.runs(cell: cell) else { continue }
        cells.append(
          ReplayCaches.Cell(
            cell: cell, policy: policy, capacitySpec: config.capacities[capacityIndex], capacity: capacity,
            rate: resolved[capacityIndex].rate))
        let tier = TierConfiguration(policy: policy, capacity: capacity, unit: config.ignoreSize ? .count : .bytes)
        do throws(EngineError) {
          engines.append(
            try CacheEngine(
              .policyRun(tier, timeToLive: config.timeToLive), seed: config.seed, rowsCarryAttributes: attributes))
        } catch {
          if case .configuration(let inner) = error { throw .configuration(inner) }
          throw .engine(label: policy.label, error)
        }
      }
    }

    var engineCells: [(cell: Int, labeled: LabeledEngine)] = []
    for (offset, labeled) in config.engines.enumerated() {
      let cell = config.policies.count * capacities.count + offset
      guard config.runs(cell: cell) else { continue }
      // Results tell policy runs from engines by their configuration: a policy run is a policy.
      guard labeled.configuration.policyRun == nil else {
        throw .configuration(
          ConfigurationError(
            .invalidValue, "engine '\(labeled.label)' is a plain policy run: give its policy in policies instead"))
      }
      var labeled = labeled
      if labeled.configuration.needsWorkingSet, let summary {
        labeled.configuration = labeled.configuration.resolvingFractions(
          workingSet: summary.workingSet(objectMode: config.ignoreSize))
      }
      engineCells.append((cell, labeled))
      do throws(EngineError) {
        engines.append(try CacheEngine(labeled.configuration, seed: config.seed, rowsCarryAttributes: attributes))
      } catch {
        if case .configuration(let inner) = error { throw .configuration(inner) }
        throw .engine(label: labeled.label, error)
      }
    }
    // Caches at a lower rate than the pass share one gathered sample per rate.
    let rates = cells.map(\.rate) + engineCells.map { _ in config.slice.sampleRate }
    var groups: [Double: SampleGroup] = [:]
    for rate in Set(rates) where rate < streamRate {
      groups[rate] = SampleGroup(threshold: TraceSlice.threshold(rate: rate), batchCapacity: config.batchSize)
    }
    let sampleGroups = Array(groups.values)
    let targets: [any ReplayTarget] = zip(engines, rates).map { engine, rate in
      let target = EngineTarget(engine)
      return groups[rate].map { SubsampledTarget(target, group: $0) } ?? target
    }
    return ReplayCaches(
      engines: engines, cells: cells, engineCells: engineCells, targets: targets, sampleGroups: sampleGroups)
  }
}
