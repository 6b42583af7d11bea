import CacheCore

/// The running total of a trace's request sizes, refusing objects above
/// ``Request/maximumSize`` and totals above ``Request/maximumTotalBytes`` so that no byte
/// counter downstream can wrap. One comparison and one add per request.
struct ByteBudget {
  private(set) var total: Int64 = 0
  private(set) var costTotal: Int64 = 0

  /// Adds `count` requests of `size` bytes; returns why the trace is refused, or nil.
  @inline(__always)
  mutating func add(_ size: Int64, count: Int64 = 1) -> String? {
    guard size <= Request.maximumSize else {
      return "size \(size) is above the largest object CacheLab accepts, 2^48 bytes (256 TiB)"
    }
    let (product, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, product <= Request.maximumTotalBytes - total else {
      return "the trace's request sizes add up to more than 2^62 bytes (4 EiB)"
    }
    total += product
    return nil
  }

  /// Adds `count` rows' app cost (each at most 2^48 already); nil, or why the trace is refused.
  @inline(__always)
  mutating func addCost(_ cost: Int64, count: Int64 = 1) -> String? {
    guard cost > 0 else { return nil }
    let (product, overflow) = cost.multipliedReportingOverflow(by: count)
    guard !overflow, product <= Request.maximumTotalBytes - costTotal else {
      return "the trace's costs add up to more than 2^62"
    }
    costTotal += product
    return nil
  }
}
