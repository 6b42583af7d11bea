import CacheCore

/// Cuts the counted requests of a run into windows and records each cache's hits per window.
///
/// For each batch the replayer asks for the segments of its counted range
/// (``segments(_:_:offset:)``), replays every cache over a segment, then calls
/// ``finish(_:misses:missBytes:)`` with each cache's cumulative miss counters. A window's hits
/// are its gets minus the growth of the miss counter (bytes likewise). O(batch) per batch,
/// one record per window.
struct WindowTracker {
  /// A piece of a batch that lies in one window.
  struct Segment {
    var range: Range<Int>
    /// Gets in the segment and their bytes.
    var gets: Int64
    var bytes: Int64 = 0
    /// Time of the segment's last get, if it has one.
    var lastTime: Int64?
    /// Request number just past the segment.
    var end: Int64 = 0
    /// Whether the window ends with this segment.
    var closes: Bool
    /// The (request number, start time) of a window that begins with this segment.
    var opens: (index: Int64, time: Int64)?
  }

  let spec: WindowSpec
  private(set) var records: [WindowRecord] = []
  private var open: WindowRecord?
  private var baseline: [Int64] = []
  private var baselineBytes: [Int64] = []
  // Planning state of ``segments``: whether a window is open, its gets and nominal start.
  private var planOpen = false
  private var planGets: Int64 = 0
  private var nominalStart: Int64 = 0

  init(_ spec: WindowSpec) {
    self.spec = spec
  }

  /// Splits `range` of `batch` (whose first request is number `offset` of the run) at window ends.
  mutating func segments(_ batch: RequestBatch, _ range: Range<Int>, offset: Int64) -> [Segment] {
    var result: [Segment] = []
    var current = Segment(range: range.lowerBound..<range.lowerBound, gets: 0, closes: false)
    batch.withRequests { requests in
      for index in range {
        let request = requests[index]
        if !planOpen {
          planOpen = true
          planGets = 0
          nominalStart = request.time
          current.opens = (offset + Int64(index), request.time)
        }
        if case .traceTime(let span) = spec, request.time >= nominalStart + span {
          current.range = current.range.lowerBound..<index
          current.end = offset + Int64(index)
          current.closes = true
          result.append(current)
          planGets = 0
          nominalStart += (request.time - nominalStart) / span * span
          current = Segment(range: index..<index, gets: 0, closes: false, opens: (offset + Int64(index), nominalStart))
        }
        guard request.operation == .get else { continue }
        current.gets += 1
        current.bytes &+= request.size
        current.lastTime = request.time
        planGets += 1
        if case .requests(let size) = spec, planGets == size {
          current.range = current.range.lowerBound..<(index + 1)
          current.end = offset + Int64(index + 1)
          current.closes = true
          result.append(current)
          planOpen = false
          current = Segment(range: (index + 1)..<(index + 1), gets: 0, closes: false)
        }
      }
    }
    if current.range.lowerBound < range.upperBound {
      current.range = current.range.lowerBound..<range.upperBound
      current.end = offset + Int64(range.upperBound)
      result.append(current)
    }
    return result
  }

  /// Accounts a replayed segment; `misses` and `missBytes` hold each cache's cumulative
  /// counters now, `latencies` closes each cache's latency window (called only when one ends).
  mutating func finish(
    _ segment: Segment, misses: [Int64], missBytes: [Int64], latencies: () -> [[Double?]?]
  ) {
    if let opens = segment.opens {
      open = WindowRecord(firstRequest: opens.index, startTime: opens.time)
    }
    open?.requests += segment.gets
    open?.requestBytes &+= segment.bytes
    if let time = segment.lastTime { open?.lastTime = time }
    open?.endRequest = segment.end
    if segment.closes { close(misses: misses, missBytes: missBytes, latencies: latencies()) }
  }

  /// Closes the last window at the end of the run and marks it partial when it is shorter
  /// than half a window (fewer than half the requests, or under half the trace-time span).
  mutating func closeLast(misses: [Int64], missBytes: [Int64], latencies: [[Double?]?]) {
    if var window = open {
      switch spec {
      case .requests(let size): window.isPartial = window.requests * 2 < size
      case .traceTime(let span): window.isPartial = (window.lastTime - window.startTime) * 2 < span
      }
      open = window
    }
    close(misses: misses, missBytes: missBytes, latencies: latencies)
  }

  private mutating func close(misses: [Int64], missBytes: [Int64], latencies: [[Double?]?]) {
    if baseline.count != misses.count {
      baseline = [Int64](repeating: 0, count: misses.count)
      baselineBytes = baseline
    }
    if var window = open, window.requests > 0 {
      window.hits = zip(misses, baseline).map { window.requests - ($0 - $1) }
      window.hitBytes = zip(missBytes, baselineBytes).map { window.requestBytes &- ($0 &- $1) }
      window.latencies = latencies
      records.append(window)
    }
    baseline = misses
    baselineBytes = missBytes
    open = nil
  }
}
