import CacheCore
import Traces

/// What the main pass counted, besides what the caches count themselves (their requests too).
struct ReplayTally {
  /// Rows read, warm-up included.
  var replayed: Int64 = 0
  /// Rows that are not gets.
  var otherRows: Int64 = 0
  var warmupRequests: Int64 = 0
  var wallSeconds = 0.0
  var windows: WindowTracker?
  /// The reader's notes once the trace was read (``TraceReader/notes``).
  var traceNotes: String?
  /// What the records say the real caches did (counted requests only).
  var observed = ObservedTraffic()
  /// Each target's replay time.
  let clock: SimulationClock
}

extension Replayer {
  /// The main pass: reads the trace a batch at a time, splits each batch at the end of the
  /// warm-up and at window ends, and has every target replay the pieces (in parallel).
  func replayBatches(_ plan: ReplayPlan, _ caches: ReplayCaches, batch: RequestBatch) throws(ReplayError)
    -> ReplayTally
  {
    let config = configuration
    let reader = plan.reader
    let nextAccess = plan.nextAccess
    let (warmupLimit, total) = (plan.warmupLimit, plan.total)
    let (targets, sampleGroups) = (caches.targets, caches.sampleGroups)
    let clock = SimulationClock(count: targets.count)
    #if CACHELAB_INJECT_SLOWDOWN
      clock.injected = InjectedSlowdown.fractions(labels: caches.targetLabels)
    #endif
    var windows = config.window.map(WindowTracker.init)
    var replayed: Int64 = 0
    var otherRows: Int64 = 0
    var warmupRequests: Int64 = 0
    var observed = ObservedTraffic()
    var warmupEnded = config.warmup == .none
    var warmupDeadline: Int64?
    let started = Stopwatch.nanoseconds()
    var timeOrder = config.dependsOnTime && reader.traits.hasTime ? TimeOrder() : nil

    // Fixed-size records are decoded a few batches ahead on another thread once the caches
    // outgrow a core's private cache (before that, reading batches another core wrote costs
    // the replay more than decoding them itself).
    let feed = BatchFeed(reader, batch: batch)
    defer { feed.stop() }
    while let batch = try next(feed) {
      if config.ignoreSize { batch.setAllSizesToOne() }
      if timeOrder != nil {
        do throws(TraceError) {
          try timeOrder?.check(batch, offset: replayed, path: config.tracePath)
        } catch {
          throw .trace(error)
        }
      }
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
        if windows != nil {
          let counts = caches.missCounts()
          windows?.finish(segment, misses: counts.misses, missBytes: counts.bytes) { caches.closeWindowLatencies() }
        }
      }
      for (index, target) in targets.enumerated() {
        if let failure = target.failure { throw .engine(label: caches.targetLabels[index], failure) }
      }
      batch.withRequests { requests in
        for index in 0..<count where requests[index].operation != .get { otherRows += 1 }
      }
      observed.count(batch, counted)
      replayed += Int64(count)
      if !feed.readsAhead, targets.contains(where: { $0.heldObjects > PrivateCacheFit.objects }) { feed.readAhead() }
      progress?(replayed, total)
    }
    feed.stop()  // the reader is the caller's again
    if !warmupEnded {
      for target in targets { target.resetCounters() }
    }
    if windows != nil {
      let counts = caches.missCounts()
      windows?.closeLast(misses: counts.misses, missBytes: counts.bytes, latencies: caches.closeWindowLatencies())
    }
    let wallSeconds = Double(Stopwatch.nanoseconds() - started) / 1e9
    return ReplayTally(
      replayed: replayed, otherRows: otherRows, warmupRequests: warmupRequests, wallSeconds: wallSeconds,
      windows: windows, traceNotes: reader.notes, observed: observed, clock: clock)
  }
}

/// Checks that trace time never decreases, for runs whose results depend on it (time
/// warm-up or windows, expiry, engines). One comparison per request.
struct TimeOrder {
  private var last = Int64.min

  /// Throws at the first request of `batch` earlier than the one before it.
  mutating func check(_ batch: RequestBatch, offset: Int64, path: String) throws(TraceError) {
    var last = self.last
    let backwards = batch.withRequests { requests -> (Int, Int64)? in
      for index in 0..<requests.count {
        if requests[index].time < last { return (index, last) }
        last = requests[index].time
      }
      return nil
    }
    self.last = last
    if let (index, previous) = backwards {
      let time = batch[index].time
      throw TraceError(
        .malformedRecord, path: path,
        "request \(offset + Int64(index) + 1) is at time \(time) µs, before the request ahead of it (\(previous) µs): time-based warm-up, windows, expiry and engines need the trace in time order; sort it by time first"
      )
    }
  }

}
