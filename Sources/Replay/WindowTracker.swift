import CacheCore

/// Cuts the counted requests of a run into windows and records each cache's hits per window.
///
/// For each batch the replayer asks for the segments of its counted range
/// (``segments(_:_:offset:)``), replays every cache over a segment, then calls
/// ``finish(_:misses:)`` with each cache's cumulative miss count. A window's hits are its
/// gets minus the growth of the miss counter. O(batch) per batch, one record per window.
struct WindowTracker {
  /// A piece of a batch that lies in one window.
  struct Segment {
    var range: Range<Int>
    /// Gets in the segment.
    var gets: Int64
    /// Whether the window ends with this segment.
    var closes: Bool
    /// The (request number, start time) of a window that begins with this segment.
    var opens: (index: Int64, time: Int64)?
  }

  let spec: WindowSpec
  private(set) var records: [WindowRecord] = []
  private var open: WindowRecord?
  private var baseline: [Int64] = []
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
    var start = range.lowerBound
    var gets: Int64 = 0
    var opens: (index: Int64, time: Int64)?
    batch.withRequests { requests in
      for index in range {
        let request = requests[index]
        if !planOpen {
          planOpen = true
          planGets = 0
          nominalStart = request.time
          opens = (offset + Int64(index), request.time)
        }
        if case .traceTime(let span) = spec, request.time >= nominalStart + span {
          result.append(Segment(range: start..<index, gets: gets, closes: true, opens: opens))
          start = index
          gets = 0
          planGets = 0
          nominalStart += (request.time - nominalStart) / span * span
          opens = (offset + Int64(index), nominalStart)
        }
        guard request.operation == .get else { continue }
        gets += 1
        planGets += 1
        if case .requests(let size) = spec, planGets == size {
          result.append(Segment(range: start..<(index + 1), gets: gets, closes: true, opens: opens))
          start = index + 1
          gets = 0
          planOpen = false
          opens = nil
        }
      }
    }
    if start < range.upperBound {
      result.append(Segment(range: start..<range.upperBound, gets: gets, closes: false, opens: opens))
    }
    return result
  }

  /// Accounts a replayed segment; `misses` holds each cache's cumulative miss count now.
  mutating func finish(_ segment: Segment, misses: [Int64]) {
    if let opens = segment.opens {
      open = WindowRecord(firstRequest: opens.index, startTime: opens.time, requests: 0, hits: [])
    }
    open?.requests += segment.gets
    if segment.closes { close(misses: misses) }
  }

  /// Closes the last window at the end of the run.
  mutating func closeLast(misses: [Int64]) {
    close(misses: misses)
  }

  private mutating func close(misses: [Int64]) {
    if baseline.count != misses.count { baseline = [Int64](repeating: 0, count: misses.count) }
    if var window = open, window.requests > 0 {
      window.hits = zip(misses, baseline).map { window.requests - ($0 - $1) }
      records.append(window)
    }
    baseline = misses
    open = nil
  }
}
