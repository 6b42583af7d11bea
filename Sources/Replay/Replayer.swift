import CacheCore
import Dispatch
import Engine
import Policies
import Traces

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replays one trace through many (policy, capacity) caches in a single pass.
///
/// The trace is read a batch at a time into one reused buffer; every cache replays the
/// batch before the next is read, in parallel across cores when there are several caches.
/// A pre-pass over the trace runs first only when a capacity is a fraction of the working
/// set or the warm-up is a fraction of a request count the format cannot tell up front.
public struct Replayer: Sendable {
  /// The run to perform.
  public private(set) var configuration: RunConfiguration
  /// Called after each batch with (requests replayed so far, total if known).
  public var progress: (@Sendable (Int64, Int64?) -> Void)?
  /// Called with the requests read so far during the pre-pass that measures the working set.
  public var prePassProgress: (@Sendable (Int64) -> Void)?

  public init(_ configuration: RunConfiguration, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) {
    self.configuration = configuration
    self.progress = progress
  }

  /// Performs the run.
  ///
  /// - Throws: ``ReplayError``: `.configuration` when the options do not fit the trace,
  ///   `.trace` for an unreadable or malformed trace, `.invariant` if a self-check fails.
  public func run() throws(ReplayError) -> RunResult {
    if let objects = configuration.slice.sampleObjects {
      var resolved = self
      resolved.configuration.slice.sampleObjects = nil
      resolved.configuration.slice.sampleRate = try fixedSizeRate(objects: objects)
      var result = try resolved.run()
      result.configuration.slice.sampleObjects = objects
      return result
    }
    let config = configuration
    let batch = RequestBatch(capacity: config.batchSize)
    var reader = try open()
    if case .traceTime = config.warmup, !reader.traits.hasTime {
      throw .configuration(
        ConfigurationError(
          .invalidValue, "\(config.tracePath): this trace has no timestamps, so warm-up must be a fraction (e.g. 0.2)"))
    }
    if let timeToLive = config.timeToLive {
      try Self.check(timeToLive, fits: reader.traits, path: config.tracePath)
    }

    let needsSummary =
      config.capacities.contains(where: \.needsWorkingSet)
      || config.engines.contains(where: \.configuration.needsWorkingSet)
      || (config.warmup.needsRequestCount && reader.knownRequestCount == nil)
    let needsNextAccess =
      config.policies.contains(where: \.entry.descriptor.needsNextAccess)
      && (!reader.traits.hasNextAccess || !config.slice.isWhole)
    if config.tracePath == "-", needsSummary || needsNextAccess {
      throw .configuration(
        ConfigurationError(
          .invalidValue,
          "standard input can be read only once, but "
            + (needsSummary
              ? "fractional sizes (or a fractional warm-up) need a pre-pass to measure the trace; give absolute sizes such as 64MiB"
              : "the offline policies need a pre-pass for next-access times")
            + ", or save the trace to a file"))
    }
    var summary: TraceSummary?
    if needsSummary {
      do throws(TraceError) {
        var scanned = try TraceSummary.scan(reader, batch: batch, progress: prePassProgress)
        if config.ignoreSize { scanned.workingSetBytes = scanned.uniqueObjects }
        summary = scanned
      } catch {
        throw .trace(error)
      }
      reader = try open()
    }

    // Each cache's sampling rate (raised by the floor for small ones) and scaled capacity; the
    // pass samples at the highest rate and sparser caches filter for themselves.
    let resolved = try resolveCapacities(summary: summary)
    let capacities = resolved.map(\.capacity)
    let streamRate = resolved.map(\.rate).max().map { max($0, config.slice.sampleRate) } ?? config.slice.sampleRate
    if streamRate != config.slice.sampleRate { reader = try open(rate: streamRate) }

    var nextAccess: NextAccessIndex?
    if needsNextAccess {
      do throws(TraceError) {
        nextAccess = try NextAccessIndex.build(reader, batch: batch)
      } catch {
        throw .trace(error)
      }
      reader = try open(rate: streamRate)
    }

    // A pass at a rate the floor raised holds more requests than the pre-pass counted at the
    // sample rate, so a fractional warm-up counts the pass's own requests (one more read).
    var passRequests: Int64?
    if streamRate != config.slice.sampleRate, config.warmup.needsRequestCount, reader.knownRequestCount == nil {
      passRequests = try countRequests(reader, batch: batch)
      reader = try open(rate: streamRate)
    }
    let total = reader.knownRequestCount ?? passRequests ?? summary?.requests
    let warmupLimit: Int64? = {
      guard case .fraction(let fraction) = config.warmup, let total else { return nil }
      return Int64((Double(total) * fraction).rounded(.down))
    }()

    var simulations: [any CacheSimulation] = []
    var cells: [(cell: Int, policy: PolicySpec, capacitySpec: CapacitySpec, capacity: Int64, rate: Double)] = []
    for (policyIndex, policy) in config.policies.enumerated() {
      for (capacityIndex, capacity) in capacities.enumerated() {
        let cell = policyIndex * capacities.count + capacityIndex
        guard config.runs(cell: cell) else { continue }
        cells.append((cell, policy, config.capacities[capacityIndex], capacity, resolved[capacityIndex].rate))
        do throws(ConfigurationError) {
          simulations.append(
            try policy.entry.makeSimulation(
              capacity: capacity, parameters: policy.parameters,
              context: PolicyContext(seed: config.seed, objectMode: config.ignoreSize),
              timeToLive: config.timeToLive))
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
        engines.append(try CacheEngine(labeled.configuration, seed: config.seed))
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

    let clock = SimulationClock(count: targets.count)
    var windows = config.window.map(WindowTracker.init)
    var replayed: Int64 = 0
    var countedRequests: Int64 = 0
    var countedBytes: Int64 = 0
    var otherRows: Int64 = 0
    var warmupRequests: Int64 = 0
    var warmupEnded = config.warmup == .none
    var warmupDeadline: Int64?
    let started = Stopwatch.nanoseconds()

    while try read(reader, into: batch) {
      if config.ignoreSize { batch.setAllSizesToOne() }
      nextAccess?.annotate(batch, offset: replayed)
      for group in sampleGroups { group.gather(from: batch) }
      let count = batch.count
      var boundary = 0
      var endsNow = false
      if !warmupEnded {
        switch config.warmup {
        case .none:
          boundary = 0
        case .fraction:
          boundary = Int(min(Int64(count), max(0, (warmupLimit ?? 0) - replayed)))
        case .traceTime(let micros):
          if warmupDeadline == nil { warmupDeadline = batch[0].time + micros }
          let deadline = warmupDeadline ?? 0
          boundary = batch.withRequests { requests in
            requests.firstIndex(where: { $0.time >= deadline }) ?? count
          }
        }
        warmupRequests += Int64(boundary)
        endsNow = boundary < count
        warmupEnded = endsNow
      }
      let counted = boundary..<count
      // The counted part, cut at window ends (one piece without windows); the first piece
      // is replayed in the same pass as the warm-up part and the reset between them.
      var segments = windows?.segments(batch, counted, offset: replayed) ?? []
      if segments.isEmpty { segments = [WindowTracker.Segment(range: counted, gets: 0, closes: false)] }
      for (number, segment) in segments.enumerated() {
        let warm = number == 0 ? 0..<boundary : 0..<0
        let reset = number == 0 && endsNow
        let range = segment.range
        if !warm.isEmpty || reset || !range.isEmpty {
          clock.replay(targets, parallel: config.parallel) { target in
            if !warm.isEmpty { target.replay(batch, range: warm) }
            if reset { target.resetCounters() }
            if !range.isEmpty { target.replay(batch, range: range) }
          }
        }
        windows?.finish(segment, misses: targets.map(\.misses), missBytes: targets.map(\.missBytes))
      }
      for (index, target) in targets.enumerated() {
        if let failure = target.failure {
          throw .engine(label: engineCells[index - simulations.count].labeled.label, failure)
        }
      }
      batch.withRequests { requests in
        for index in 0..<count {
          if requests[index].operation != .get {
            otherRows += 1
          } else if index >= boundary {
            countedBytes &+= requests[index].size
            countedRequests += 1
          }
        }
      }
      replayed += Int64(count)
      progress?(replayed, total)
    }
    if !warmupEnded {
      for target in targets { target.resetCounters() }
    }
    windows?.closeLast(misses: targets.map(\.misses), missBytes: targets.map(\.missBytes))
    let wallSeconds = Double(Stopwatch.nanoseconds() - started) / 1e9

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
    var caches: [CacheResult] = []
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
      }
      caches.append(
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
      configuration: config, summary: summary, replayedRequests: replayed, otherRows: otherRows,
      warmupRequests: warmupRequests,
      caches: caches, engines: engineResults, wallSeconds: wallSeconds, windows: windows?.records ?? [])
    result.peakMemoryBytes = Self.peakResidentBytes()
    return result
  }

  /// The process's peak resident set size so far, in bytes (Linux reports KiB, macOS bytes).
  static func peakResidentBytes() -> Int64 {
    var usage = rusage()
    #if os(Linux)
      let who = RUSAGE_SELF.rawValue
    #else
      let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    #if os(Linux)
      return Int64(usage.ru_maxrss) * 1024
    #else
      return Int64(usage.ru_maxrss)
    #endif
  }

  /// The rate of a fixed-size sample of `objects` objects, from a pre-pass over the keys of the
  /// trace's first `--num-req` requests.
  private func fixedSizeRate(objects: Int) throws(ReplayError) -> Double {
    do throws(TraceError) {
      let reader = TraceSlice(requestLimit: configuration.slice.requestLimit).apply(
        to: try configuration.trace.open(configuration.readPath ?? configuration.tracePath))
      return try TraceSlice.fixedSizeRate(
        objects: objects, reader: reader, batch: RequestBatch(capacity: configuration.batchSize))
    } catch {
      throw .trace(error)
    }
  }

  /// How many requests `reader` delivers (reading it to the end).
  private func countRequests(_ reader: any TraceReader, batch: RequestBatch) throws(ReplayError) -> Int64 {
    var count: Int64 = 0
    while try read(reader, into: batch) { count += Int64(batch.count) }
    return count
  }

  /// The trace, sliced as configured (at `rate` instead of the configured rate when given).
  private func open(rate: Double? = nil) throws(ReplayError) -> any TraceReader {
    do throws(TraceError) {
      return configuration.slice.at(rate: rate ?? configuration.slice.sampleRate).apply(
        to: try configuration.trace.open(configuration.readPath ?? configuration.tracePath))
    } catch {
      throw .trace(error)
    }
  }

  private func read(_ reader: any TraceReader, into batch: RequestBatch) throws(ReplayError) -> Bool {
    do throws(TraceError) {
      return try reader.read(into: batch)
    } catch {
      throw .trace(error)
    }
  }

  /// Each cache's capacity and sampling rate. Absolute sizes scale by the rate (SHARDS: a
  /// sample of rate R behaves like the whole trace in a cache R times smaller); the floor
  /// raises the rate of a cache that would hold fewer than `minimumObjects` objects (in byte
  /// mode estimated with the mean object size). Fractions are fractions of the sampled
  /// working set, at the configured rate.
  private func resolveCapacities(summary: TraceSummary?) throws(ReplayError) -> [(capacity: Int64, rate: Double)] {
    let unit = configuration.ignoreSize ? "objects" : "bytes"
    let slice = configuration.slice
    let objectSize: Double? =
      slice.sampleRate < 1 && slice.minimumObjects > 0
      ? (configuration.ignoreSize ? 1 : try meanObjectSize(summary: summary)) : nil
    var result: [(capacity: Int64, rate: Double)] = []
    for spec in configuration.capacities {
      var capacity = spec.resolve(workingSet: summary?.workingSet(objectMode: configuration.ignoreSize))
      var rate = slice.sampleRate
      if case .absolute = spec, slice.sampleRate < 1 {
        if let objectSize, objectSize > 0 {
          let objects = Double(capacity) / objectSize
          if objects * rate < Double(slice.minimumObjects) {
            rate = TraceSlice.gridRate(atLeast: Double(slice.minimumObjects) / max(objects, 1))
          }
        }
        capacity = max(1, Int64((Double(capacity) * rate).rounded()))
      }
      if capacity < 1, let summary, summary.requests == 0 {
        throw .trace(
          TraceError(
            .unsupported, path: configuration.tracePath,
            "holds no requests, so \(spec) of its working set is no cache size (give absolute sizes such as 64MiB)"))
      }
      guard capacity >= 1 else {
        throw .configuration(
          ConfigurationError(
            .invalidValue,
            "cache size \(spec) of a working set of \(summary?.workingSet(objectMode: configuration.ignoreSize) ?? 0) \(unit) is less than 1"
          ))
      }
      result.append((capacity, rate))
    }
    return result
  }

  /// The mean size of the distinct objects: from the pre-pass when there was one, else from
  /// the first batch of the unsampled trace; nil for standard input (read only once).
  private func meanObjectSize(summary: TraceSummary?) throws(ReplayError) -> Double? {
    if let summary, summary.uniqueObjects > 0 {
      return Double(summary.workingSetBytes) / Double(summary.uniqueObjects)
    }
    guard configuration.tracePath != "-" else { return nil }
    let reader = try open(rate: 1)
    let batch = RequestBatch(capacity: configuration.batchSize)
    guard try read(reader, into: batch) else { return nil }
    var sizes: [UInt64: Int64] = [:]
    batch.withRequests { requests in
      for request in requests where request.operation == .get { sizes[request.key] = request.size }
    }
    return sizes.isEmpty ? nil : sizes.values.reduce(0.0) { $0 + Double($1) } / Double(sizes.count)
  }
}

/// Runs the caches over a batch, serially or across cores, and totals each one's time.
final class SimulationClock: @unchecked Sendable {
  private let nanoseconds: UnsafeMutableBufferPointer<UInt64>

  init(count: Int) {
    nanoseconds = .allocate(capacity: max(count, 1))
    nanoseconds.initialize(repeating: 0)
  }

  deinit {
    nanoseconds.deallocate()
  }

  /// Seconds spent in `body` for simulation `index`.
  func seconds(of index: Int) -> Double {
    Double(nanoseconds[index]) / 1e9
  }

  /// Calls `body` once per simulation; each simulation is touched by one thread only.
  func replay(
    _ targets: [any ReplayTarget], parallel: Bool,
    _ body: @Sendable (any ReplayTarget) -> Void
  ) {
    if parallel && targets.count > 1 {
      DispatchQueue.concurrentPerform(iterations: targets.count) { index in
        self.timed(index) { body(targets[index]) }
      }
    } else {
      for index in targets.indices {
        timed(index) { body(targets[index]) }
      }
    }
  }

  @inline(__always)
  private func timed(_ index: Int, _ body: () -> Void) {
    let start = Stopwatch.nanoseconds()
    body()
    nanoseconds[index] &+= Stopwatch.nanoseconds() - start
  }
}

extension Replayer {
  /// Refuses a `--ttl` that could expire nothing: a trace without times, or `--ttl trace` on a
  /// format without a TTL column.
  static func check(_ timeToLive: TimeToLive, fits traits: TraceTraits, path: String) throws(ReplayError) {
    if !traits.hasTime {
      throw .configuration(
        ConfigurationError(.invalidValue, "\(path): this trace has no timestamps, so --ttl cannot expire anything"))
    }
    if !timeToLive.hasDefault, !traits.hasTTL {
      throw .configuration(
        ConfigurationError(
          .invalidValue,
          "\(path): this trace's format has no TTL column, so --ttl trace would expire nothing; give a lifetime for every object instead (e.g. --ttl 1h)"
        ))
    }
  }
}
