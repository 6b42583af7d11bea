import Histogram

/// Per-request latencies, in microseconds, for ``EngineStats/latency``. The engine's most
/// frequent value, a memory hit's fixed cost, is only counted and joins the histogram in bulk
/// when read (the same histogram as recording each one); any other value costs one
/// histogram record.
struct LatencyRecorder {
  /// The value counted rather than recorded.
  let frequent: UInt64
  private var histogram: Histogram<UInt64>
  private var frequentCount: UInt64 = 0

  /// A recorder into the histogram of `stats` (``EngineStats/withoutLatency`` for an engine
  /// that records none).
  init(frequent: Int64, into stats: EngineStats = EngineStats()) {
    self.frequent = UInt64(max(frequent, 0))
    histogram = stats.latency
  }

  /// Records one request's latency (negative counts as 0). O(1).
  @inline(__always)
  mutating func record(_ latency: Int64) {
    let value = UInt64(max(latency, 0))
    if value == frequent {
      frequentCount &+= 1
    } else {
      _ = histogram.record(value)
    }
  }

  /// Every latency recorded so far. O(histogram size) when the frequent value was counted.
  var recorded: Histogram<UInt64> {
    guard frequentCount > 0 else { return histogram }
    var merged = histogram
    _ = merged.record(frequent, count: frequentCount)
    return merged
  }
}
