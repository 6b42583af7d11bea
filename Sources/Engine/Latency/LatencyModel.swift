import CacheCore

/// What each operation of a simulated engine costs (the file backend measures its disk
/// operations instead). The defaults are the figures CacheLab has always charged; see
/// docs/latency.md for what each means and where the named profiles come from.
public struct LatencyModel: Sendable, Equatable, CustomStringConvertible {
  /// A memory hit.
  public var memory = LatencyCost(fixed: 20)
  /// Reading an object from the disk tier (a disk hit).
  public var diskRead = LatencyCost(fixed: 100, bytesPerSecond: 500e6)
  /// Reading an object when the disk's last operation was a write, whose fsync left the
  /// processor idle (nil: `diskRead`).
  public var diskReadAfterWrite: LatencyCost?
  /// Writing an object to the disk tier (off the request's path).
  public var diskWrite = LatencyCost(fixed: 100, bytesPerSecond: 500e6)
  /// Deleting an object's file (off the request's path).
  public var diskDelete = LatencyCost(fixed: 0)
  /// Rewriting an object's access date on disk (off the request's path).
  public var diskTouch = LatencyCost(fixed: 0)
  /// A conditional request's round trip and its response headers; nil: the origin's round
  /// trip (the trace's latency under `origin=trace`) and the headers over its bandwidth.
  public var revalidation: LatencyCost?
  /// A full fetch: the round trip plus headers and body over the bandwidth.
  public var origin = LatencyCost(fixed: 100_000, bytesPerSecond: 10e6)
  /// Whether a request's own latency in the trace replaces the origin's fixed part.
  public var originFromTrace = true
  /// Bytes of response headers (all a 304 transfers).
  public var headerBytes: Int64 = 300
  /// What the model was made from, for reports: `default`, profile names, files, `--latency`.
  public var profile = "default"

  public init() {}

  /// The round trip of a request whose trace latency is `traceLatency` (negative: none).
  @inlinable public func roundTrip(traceLatency: Int64) -> Int64 {
    originFromTrace && traceLatency >= 0 ? traceLatency : origin.fixed
  }

  /// Every setting as a `--latency` SPEC that reads back to the same model (the profile
  /// name aside).
  public var description: String {
    LatencySpec.Key.allCases.compactMap { key in setting(key).map { "\(key.rawValue)=\($0)" } }
      .joined(separator: ",")
  }

  /// The value of `key` as it would be written; nil for `disk`, which only abbreviates, and
  /// for an unset `disk-read-after-write`.
  func setting(_ key: LatencySpec.Key) -> String? {
    switch key {
    case .memory: return memory.description
    case .disk: return nil
    case .diskRead: return diskRead.description
    case .diskReadAfterWrite: return diskReadAfterWrite?.description
    case .diskWrite: return diskWrite.description
    case .diskDelete: return diskDelete.description
    case .diskTouch: return diskTouch.description
    case .revalidation: return revalidation?.description ?? "origin"
    case .origin: return (originFromTrace ? "trace|" : "") + origin.description
    case .headers:
      let exact = ByteCount.exact(headerBytes)
      return ByteCount.hasUnit(exact) ? exact : exact + "B"
    }
  }
}
