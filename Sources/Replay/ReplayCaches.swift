import CacheCore
import Engine
import Traces

/// The caches of a run: one engine per (policy, size) cell of the run's shard (a plain
/// policy run) or one stack pass for an LRU's cells, then the configured engines, and the
/// replay targets over them (a cache sampled more sparsely than the pass reads its own
/// ``SampleGroup``).
struct ReplayCaches {
  struct Cell {
    var cell: Int
    var policy: PolicySpec
    var capacitySpec: CapacitySpec
    var capacity: Int64
    var rate: Double
  }

  /// The policy runs' engines, in the order of the simulated ``cells``, then the configured
  /// engines, in the order of ``engineCells``.
  var engines: [CacheEngine]
  var cells: [Cell]
  var engineCells: [(cell: Int, labeled: LabeledEngine)]
  /// The simulated cells' engines' targets, then the stack passes, then the engines'.
  var targets: [any ReplayTarget]
  /// Per target, the policy or engine label its errors carry.
  var targetLabels: [String]
  /// Per cache, in result order (``cells`` then ``engineCells``): its target and its index
  /// among the target's caches.
  var sources: [(target: Int, cache: Int)]
  var sampleGroups: [SampleGroup]
  /// How the curves are made (``StackPlan/note``).
  var methodNote: String?

  /// Every cache's counted misses and their bytes, in result order. O(caches + sizes).
  func missCounts() -> (misses: [Int64], bytes: [Int64]) {
    let perTarget = targets.map(\.missCounts)
    let counts = sources.map { perTarget[$0.target][$0.cache] }
    return (counts.map(\.misses), counts.map(\.bytes))
  }

  /// Every cache's window latencies, in result order (a stack pass records none).
  func closeWindowLatencies() -> [[Double?]?] {
    let perTarget = targets.map { $0.closeWindowLatencies() }
    return sources.map { perTarget[$0.target] }
  }
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
    var cells: [ReplayCaches.Cell] = []
    for (policyIndex, policy) in config.policies.enumerated() {
      for (capacityIndex, capacity) in capacities.enumerated() {
        let cell = policyIndex * capacities.count + capacityIndex
        guard config.runs(cell: cell) else { continue }
        cells.append(
          ReplayCaches.Cell(
            cell: cell, policy: policy, capacitySpec: config.capacities[capacityIndex], capacity: capacity,
            rate: resolved[capacityIndex].rate))
      }
    }
    let stackPlan = try planStack(cells, summary: summary)
    var sources = [(target: Int, cache: Int)](repeating: (0, 0), count: cells.count)
    var stacked = Set<Int>()
    for pass in stackPlan.passes { stacked.formUnion(pass) }
    var engines: [CacheEngine] = []
    var rates: [Double] = []
    var targetLabels: [String] = []
    for (index, cell) in cells.enumerated() where !stacked.contains(index) {
      let tier = TierConfiguration(
        policy: cell.policy, capacity: cell.capacity, unit: config.ignoreSize ? .count : .bytes)
      do throws(EngineError) {
        engines.append(
          try CacheEngine(
            .policyRun(tier, timeToLive: config.timeToLive), seed: config.seed, rowsCarryAttributes: attributes))
      } catch {
        if case .configuration(let inner) = error { throw .configuration(inner) }
        throw .engine(label: cell.policy.label, error)
      }
      sources[index] = (engines.count - 1, 0)
      rates.append(cell.rate)
      targetLabels.append(cell.policy.label)
    }
    let simulated = engines.count
    var stacks: [StackCurveTarget] = []
    for pass in stackPlan.passes {
      stacks.append(StackCurveTarget(capacities: pass.map { cells[$0].capacity }))
      for (cache, index) in pass.enumerated() { sources[index] = (simulated + stacks.count - 1, cache) }
      rates.append(cells[pass[0]].rate)
      targetLabels.append(cells[pass[0]].policy.label)
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
    for offset in engineCells.indices {
      sources.append((simulated + stacks.count + offset, 0))
      rates.append(config.slice.sampleRate)
      targetLabels.append(engineCells[offset].labeled.label)
    }
    // Caches at a lower rate than the pass share one gathered sample per rate.
    var groups: [Double: SampleGroup] = [:]
    for rate in Set(rates) where rate < streamRate {
      groups[rate] = SampleGroup(threshold: TraceSlice.threshold(rate: rate), batchCapacity: config.batchSize)
    }
    let sampleGroups = Array(groups.values)
    let inner: [any ReplayTarget] =
      engines.prefix(simulated).map(EngineTarget.init) + stacks + engines.dropFirst(simulated).map(EngineTarget.init)
    let targets: [any ReplayTarget] = zip(inner, rates).map { target, rate in
      groups[rate].map { SubsampledTarget(target, group: $0) } ?? target
    }
    return ReplayCaches(
      engines: engines, cells: cells, engineCells: engineCells, targets: targets, targetLabels: targetLabels,
      sources: sources, sampleGroups: sampleGroups, methodNote: stackPlan.note)
  }
}
