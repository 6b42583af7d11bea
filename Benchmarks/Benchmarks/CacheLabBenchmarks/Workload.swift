import CacheCore
import Foundation

/// The synthetic request streams the benchmarks replay, built once per process from fixed seeds.
///
/// Popularity is Zipf(α = 0.9) over `objects` ranks (inverse-CDF sampling with a binary search
/// over the cumulative weights), keys are scattered ranks and requests are 1 ms apart.
enum Workload {
  /// Requests per stream: one measured iteration of the replay and decode benchmarks, whose
  /// `scalingFactor` is `.mega`, so their metrics are reported per request.
  static let requestCount = 1_000_000
  /// Distinct objects in the streams.
  static let objectCount = 100_000
  /// Replay capacity: 10 % of the objects (object mode, every size is 1).
  static let replayCapacity: Int64 = 10_000
  /// Zipf exponent.
  static let alpha = 0.9

  /// Object-mode requests (size 1) for the policy replays.
  static let replayRequests: [Request] = zipfRequests(seed: 42, sizes: nil)
  /// The same stream as filled request batches (the last one partial).
  static let replayBatches: [RequestBatch] = batches(of: replayRequests)
  /// Byte-mode requests (1 KiB to 64 KiB per object) for the decoder and the engine.
  static let sizedRequests: [Request] = zipfRequests(seed: 7, sizes: 1024...65_536)

  /// `requestCount` requests with Zipf popularity; sizes are per object (1 when `sizes` is nil).
  static func zipfRequests(seed: UInt64, sizes: ClosedRange<Int64>?) -> [Request] {
    var random = SplitMix64(seed: seed)
    var cumulative: [Double] = []
    cumulative.reserveCapacity(objectCount)
    var total = 0.0
    for rank in 1...objectCount {
      total += 1 / pow(Double(rank), alpha)
      cumulative.append(total)
    }
    var objectSizes: [Int64] = []
    objectSizes.reserveCapacity(objectCount)
    for _ in 0..<objectCount {
      if let sizes {
        let span = Int(sizes.upperBound - sizes.lowerBound + 1)
        objectSizes.append(sizes.lowerBound + Int64(random.next(below: span)))
      } else {
        objectSizes.append(1)
      }
    }
    var requests: [Request] = []
    requests.reserveCapacity(requestCount)
    for index in 0..<requestCount {
      let target = random.nextUnit() * total
      var low = 0
      var high = objectCount - 1
      while low < high {
        let middle = (low + high) / 2
        if cumulative[middle] < target { low = middle + 1 } else { high = middle }
      }
      requests.append(
        Request(time: Int64(index) * 1000, key: UInt64(low) &* 0x9E37_79B9_7F4A_7C15 &+ 3, size: objectSizes[low]))
    }
    return requests
  }

  /// `requests` copied into batches of `capacity`.
  static func batches(of requests: [Request], capacity: Int = 1 << 16) -> [RequestBatch] {
    var result: [RequestBatch] = []
    var start = 0
    while start < requests.count {
      let end = min(start + capacity, requests.count)
      let batch = RequestBatch(capacity: capacity)
      batch.refill { buffer in
        for index in start..<end { buffer[index - start] = requests[index] }
        return end - start
      }
      result.append(batch)
      start = end
    }
    return result
  }
}
