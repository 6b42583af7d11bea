import Histogram

/// Per-request latencies, in microseconds, for ``EngineStats/latency`` and, by what answered
/// each request, ``EngineStats/tiers``. The engine's most frequent value, a memory hit's
/// fixed cost, is only counted and joins the histograms in bulk when read (the same
/// histograms as recording each one); any other value costs two histogram records.
struct LatencyRecorder {
  /// The value counted rather than recorded when memory answers.
  let frequent: UInt64
  private var histogram: Histogram<UInt64>
  private var frequentCount: UInt64 = 0
  private var tiers: TierLatencies?

  /// A recorder into the histogram of `stats` (``EngineStats/withoutLatency`` for an engine
  /// that records none, and keeps no per-tier figures).
  init(frequent: Int64, into stats: EngineStats = EngineStats()) {
    self.frequent = UInt64(max(frequent, 0))
    histogram = stats.latency
    tiers = stats.tiers
  }

  /// Records one request's latency (negative counts as 0), answered by `answer`. O(1).
  @inline(__always)
  mutating func record(_ latency: Int64, _ answer: TierLatencies.Answer) {
    let value = UInt64(max(latency, 0))
    if value == frequent, answer == .memory {
      frequentCount &+= 1
      return
    }
    _ = histogram.record(value)
    recordTier(value, answer)
  }

  @inline(__always)
  private mutating func recordTier(_ value: UInt64, _ answer: TierLatencies.Answer) {
    guard tiers != nil else { return }
    tiers!.totals[answer.rawValue] &+= Int64(value)
    tiers!.counts[answer.rawValue] &+= 1
    switch answer {
    case .memory: _ = tiers!.memoryHit.record(value)
    case .disk: _ = tiers!.diskHit.record(value)
    case .origin: _ = tiers!.origin.record(value)
    case .revalidation: break
    }
  }

  /// Records one disk write's cost (in no request's latency). O(1).
  @inline(__always)
  mutating func recordDiskWrite(_ cost: Int64) {
    guard tiers != nil else { return }
    _ = tiers!.diskWrite.record(UInt64(max(cost, 0)))
  }

  /// Every latency recorded so far. O(histogram size) when the frequent value was counted.
  var recorded: Histogram<UInt64> {
    guard frequentCount > 0 else { return histogram }
    var merged = histogram
    _ = merged.record(frequent, count: frequentCount)
    return merged
  }

  /// The per-tier figures so far (nil for an engine that records no latency).
  var recordedTiers: TierLatencies? {
    guard var merged = tiers, frequentCount > 0 else { return tiers }
    _ = merged.memoryHit.record(frequent, count: frequentCount)
    merged.totals[TierLatencies.Answer.memory.rawValue] &+= Int64(frequent &* frequentCount)
    merged.counts[TierLatencies.Answer.memory.rawValue] &+= Int64(frequentCount)
    return merged
  }
}
