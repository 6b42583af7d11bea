import CacheCore

/// What the real caches on a trace's path did, as its records state (HTTP logs and captures):
/// counted over the replayed `get` requests after the warm-up, beside the simulated caches.
public struct ObservedTraffic: Sendable, Equatable {
  /// Requests the upstream cache the records name answered without a full origin fetch.
  public var upstreamHits: Int64 = 0
  /// Requests that cache fetched from the origin.
  public var upstreamMisses: Int64 = 0
  /// Requests the recording client answered from its own cache (HAR).
  public var clientHits: Int64 = 0

  public init() {}

  /// Whether any record stated an outcome (the report's observed columns are empty otherwise).
  public var hasOutcomes: Bool { upstreamHits + upstreamMisses + clientHits > 0 }

  /// upstreamHits / (upstreamHits + upstreamMisses): the share of the requests whose record
  /// names the upstream cache's outcome that it served; nil when none does.
  public var upstreamHitRatio: Double? {
    let stated = upstreamHits + upstreamMisses
    return stated > 0 ? Double(upstreamHits) / Double(stated) : nil
  }

  /// Counts the outcomes of the `get` requests of `batch` in `range`. O(range), nothing when
  /// the batch carries no attributes.
  mutating func count(_ batch: RequestBatch, _ range: Range<Int>) {
    guard !range.isEmpty else { return }
    batch.withAttributes { attributes in
      guard let attributes else { return }
      batch.withRequests { requests in
        for index in range where requests[index].operation == .get {
          switch attributes[index].observed {
          case .unknown: break
          case .upstreamHit: upstreamHits += 1
          case .upstreamMiss: upstreamMisses += 1
          case .clientHit: clientHits += 1
          }
        }
      }
    }
  }
}
