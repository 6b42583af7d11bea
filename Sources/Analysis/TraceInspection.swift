import CacheCore
import Stats
import Traces

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a trace is like: requests, distinct objects, working set, one-hit wonders, object
/// sizes, reuse distances and the Zipf exponent of its popularity.
///
/// One streaming pass; memory is one hash entry per distinct object plus 5 bytes per
/// request for the reuse-distance tree.
public struct TraceInspection: Sendable {
  /// Rows of the trace (all operations) and gets among them.
  public var rows: Int64 = 0
  public var requests: Int64 = 0
  public var requestBytes: Int64 = 0
  /// Distinct objects requested and the sum of their first-seen sizes.
  public var uniqueObjects: Int = 0
  public var workingSetBytes: Int64 = 0
  /// Objects requested exactly once.
  public var oneHitWonders: Int = 0
  /// First and last request time (µs), when the format has time.
  public var firstTime: Int64 = 0
  public var lastTime: Int64 = 0
  public var hasTime = false
  /// Summary of the objects' first-seen sizes.
  public var sizes: SampleSummary?
  /// Objects per size class: index k counts sizes in [2^k, 2^(k+1)) (k = 0 also holds size 0).
  public var sizeHistogram: [Int64] = []
  /// Re-requests per reuse distance class: index 0 counts distance 0, index k ≥ 1 counts
  /// distances in [2^(k−1), 2^k). First requests are not included (they are `uniqueObjects`).
  public var reuseHistogram: [Int64] = []
  /// Fitted Zipf exponent α (frequency ∝ rank^−α) and the fit's R², when at least three
  /// objects were requested twice or more.
  public var zipfAlpha: Double?
  public var zipfRSquared: Double?
  /// The HTTP side (cacheability, statuses, hosts, rate, observed outcomes), for traces whose
  /// requests carry HTTP attributes.
  public var http: HTTPInspection?

  /// Fraction of distinct objects requested once.
  public var oneHitWonderRatio: Double { uniqueObjects > 0 ? Double(oneHitWonders) / Double(uniqueObjects) : 0 }

  /// Reads `path` in `format` and characterises it.
  ///
  /// - Throws: ``TraceError`` for an unreadable or malformed trace.
  public static func inspect(
    _ path: String, format: TraceSpec, progress: ((Int64, Int64?) -> Void)? = nil
  ) throws(TraceError) -> TraceInspection {
    let reader = try format.open(path)
    let batch = RequestBatch(capacity: 1 << 16)
    var result = TraceInspection()
    struct Object {
      var last: Int
      var count: Int32
      var size: Int64
    }
    var objects: [UInt64: Object] = [:]
    var distances = ReuseDistanceCounter()
    var position = 0
    result.hasTime = reader.traits.hasTime
    var http = reader.traits.hasAttributes ? HTTPInspection() : nil
    reader.trafficBook?.isTallying = true
    while try reader.read(into: batch) {
      result.rows += Int64(batch.count)
      if http != nil, batch.hasAttributes {
        for index in 0..<batch.count { http!.add(batch[index], batch.attributes(index)) }
      }
      progress?(result.rows, reader.knownRequestCount)
      batch.withRequests { requests in
        for request in requests where request.operation == .get {
          if result.requests == 0 { result.firstTime = request.time }
          result.lastTime = request.time
          result.requests += 1
          result.requestBytes += request.size
          let known = objects[request.key]
          if let distance = distances.record(position: position, previous: known?.last) {
            let bucket = distance == 0 ? 0 : Int.bitWidth - distance.leadingZeroBitCount
            if result.reuseHistogram.count <= bucket {
              result.reuseHistogram += [Int64](repeating: 0, count: bucket + 1 - result.reuseHistogram.count)
            }
            result.reuseHistogram[bucket] += 1
          }
          if var object = known {
            object.last = position
            object.count += 1
            objects[request.key] = object
          } else {
            objects[request.key] = Object(last: position, count: 1, size: request.size)
          }
          position += 1
        }
      }
    }
    result.uniqueObjects = objects.count
    if var http, http.requests > 0 {
      http.tallies = reader.trafficBook?.tallies
      result.http = http
    }
    var counts: [Int32] = []
    counts.reserveCapacity(objects.count)
    var sizes: [Double] = []
    sizes.reserveCapacity(objects.count)
    for object in objects.values {
      result.workingSetBytes += object.size
      if object.count == 1 { result.oneHitWonders += 1 }
      counts.append(object.count)
      sizes.append(Double(object.size))
      let bucket = object.size <= 1 ? 0 : Int64.bitWidth - 1 - object.size.leadingZeroBitCount
      if result.sizeHistogram.count <= bucket {
        result.sizeHistogram += [Int64](repeating: 0, count: bucket + 1 - result.sizeHistogram.count)
      }
      result.sizeHistogram[bucket] += 1
    }
    if !sizes.isEmpty { result.sizes = SampleSummary(sizes) }
    (result.zipfAlpha, result.zipfRSquared) = zipfFit(counts)
    return result
  }

  /// Least-squares fit of log(frequency) = c − α·log(rank) over the objects requested at
  /// least twice (the one-request tail is flat by construction and would bias α down), by
  /// ``LinearFit``. Returns (α, R²) or (nil, nil) with fewer than three such objects.
  static func zipfFit(_ counts: [Int32]) -> (Double?, Double?) {
    let sorted = counts.filter { $0 >= 2 }.sorted(by: >)
    guard sorted.count >= 3,
      let fit = LinearFit(x: (1...sorted.count).map { log(Double($0)) }, y: sorted.map { log(Double($0)) })
    else { return (nil, nil) }
    return (-fit.slope, fit.rSquared)
  }

}
