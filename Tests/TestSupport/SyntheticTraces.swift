import CacheCore
import Foundation

/// Small deterministic request sequences and encoders for tests.
public enum SyntheticTraces {
  /// `count` requests over `objects` keys with skewed popularity and per-object sizes in
  /// `sizes` (size 1 when nil), from a seeded generator.
  public static func requests(
    count: Int, objects: Int, sizes: ClosedRange<Int64>? = nil, seed: UInt64 = 1
  ) -> [Request] {
    var random = SplitMix64(seed: seed)
    var objectSizes: [Int64] = []
    for _ in 0..<objects {
      if let sizes {
        objectSizes.append(sizes.lowerBound + Int64(random.next(below: Int(sizes.upperBound - sizes.lowerBound + 1))))
      } else {
        objectSizes.append(1)
      }
    }
    var result: [Request] = []
    for index in 0..<count {
      // Squaring a uniform draw skews towards small ranks (a cheap Zipf-like shape).
      let u = random.nextUnit()
      let rank = min(objects - 1, Int(u * u * Double(objects)))
      result.append(Request(time: Int64(index) * 1000, key: UInt64(rank) &* 7919 &+ 3, size: objectSizes[rank]))
    }
    return result
  }

  /// The oracleGeneral encoding of `requests` (next-access computed).
  public static func oracleGeneral(_ requests: [Request]) -> [UInt8] {
    var next = [Int64](repeating: -1, count: requests.count)
    var last: [UInt64: Int] = [:]
    for index in stride(from: requests.count - 1, through: 0, by: -1) {
      if let later = last[requests[index].key] { next[index] = Int64(later + 1) }
      last[requests[index].key] = index
    }
    var bytes: [UInt8] = []
    for (index, request) in requests.enumerated() {
      append(&bytes, UInt32(request.time / 1_000_000).littleEndian)
      append(&bytes, request.key.littleEndian)
      append(&bytes, UInt32(request.size).littleEndian)
      append(&bytes, next[index].littleEndian)
    }
    return bytes
  }

  /// Appends the raw bytes of `value`.
  public static func append<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
    withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
  }
}
