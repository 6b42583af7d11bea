import CacheCore
import Traces

/// What a run reads and how, decided before the main pass: the trace opened at the pass's
/// sampling rate after any pre-passes, the whole-trace summary and next-access index when
/// needed, each cache size's capacity and rate, and how many requests warm up.
struct ReplayPlan {
  var reader: any TraceReader
  var summary: TraceSummary?
  /// Whether the summary was measured only to check the stack pass (results then show none,
  /// so that rows are the same whichever method made them).
  var summaryIsPrivate = false
  var nextAccess: NextAccessIndex?
  /// Per configured size: the capacity (scaled by its rate when sampling) and that rate.
  var capacities: [(capacity: Int64, rate: Double)]
  /// The rate the pass samples at: the highest of the caches' rates.
  var streamRate: Double
  /// Requests the pass will deliver, when known (progress and a fractional warm-up).
  var total: Int64?
  /// Requests that only warm the caches, for a fractional warm-up.
  var warmupLimit: Int64?
}

extension Replayer {
  /// Opens the trace, checks the options against it, runs the pre-passes the run needs
  /// (working set, next-access times, the raised pass's length) and resolves the sizes.
  func makePlan(batch: RequestBatch) throws(ReplayError) -> ReplayPlan {
    let config = configuration
    var reader = try open()
    if case .traceTime = config.warmup, !reader.traits.hasTime {
      throw .configuration(
        ConfigurationError(
          .invalidValue, "\(config.tracePath): this trace has no timestamps, so warm-up must be a fraction (e.g. 0.2)"))
    }
    if let timeToLive = config.timeToLive {
      try Self.check(timeToLive, fits: reader.traits, path: config.tracePath)
    }

    let resultsNeedSummary =
      config.capacities.contains(where: \.needsWorkingSet)
      || config.engines.contains(where: \.configuration.needsWorkingSet)
      || (config.warmup.needsRequestCount && reader.knownRequestCount == nil)
    let needsSummary = resultsNeedSummary || (wantsStackPass && config.tracePath != "-")
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
    let resolved = try resolveCapacities(summary: resultsNeedSummary ? summary : nil)
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
    return ReplayPlan(
      reader: reader, summary: summary, summaryIsPrivate: !resultsNeedSummary, nextAccess: nextAccess,
      capacities: resolved, streamRate: streamRate, total: total, warmupLimit: warmupLimit)
  }

  /// How many requests `reader` delivers (reading it to the end).
  private func countRequests(_ reader: any TraceReader, batch: RequestBatch) throws(ReplayError) -> Int64 {
    var count: Int64 = 0
    while try read(reader, into: batch) { count += Int64(batch.count) }
    return count
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
            slice.sampleRate < 1
              ? "the sample at rate \(slice.sampleRate) holds no requests, so \(spec) of its working set is no cache size (raise --sample, or give absolute sizes such as 64MiB)"
              : "holds no requests, so \(spec) of its working set is no cache size (give absolute sizes such as 64MiB)")
        )
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
