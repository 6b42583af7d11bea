import CacheCore
import Histogram

/// What an engine counted over the requests after warm-up.
///
/// A request is a *hit* when it is answered from a tier without waiting for the origin
/// (fresh, served while revalidating in the background, or served stale on an origin
/// error); everything else — full fetches, revalidations (304 or 200), errors — is a miss.
public struct EngineStats: Sendable {
  public var requests: Int64 = 0
  public var requestBytes: Int64 = 0
  public var memoryHits: Int64 = 0
  public var diskHits: Int64 = 0
  /// Request bytes of the hits.
  public var hitBytes: Int64 = 0
  /// Lookups that found a stored object no longer usable as is (expired or stale).
  public var expired: Int64 = 0
  public var revalidated304: Int64 = 0
  public var revalidated200: Int64 = 0
  /// Responses served from a tier whose version is older than the origin's current one.
  public var staleServed: Int64 = 0
  /// Responses served from a tier while a revalidation ran in the background.
  public var servedWhileRevalidating: Int64 = 0
  /// Stale responses served because the origin failed (stale-if-error).
  public var servedOnError: Int64 = 0
  /// Responses served with a body the cache had lost (MKNetworkKit's 304 quirk).
  public var lostBodyServed: Int64 = 0
  /// Full responses fetched from the origin (misses and 200 revalidations), and their bytes.
  public var originFetches: Int64 = 0
  public var originBytes: Int64 = 0
  /// Requests the library sent past its cache (no lookup, no store), e.g. MKNetworkKit's
  /// HTTPS requests without `alwaysCache`.
  public var bypassed: Int64 = 0
  /// Requests the origin failed and no stale copy could answer.
  public var originErrors: Int64 = 0
  /// Misses a plain policy run did not insert (larger than the cache, or refused by the
  /// policy's own filter or its admission policy).
  public var rejected: Int64 = 0
  /// Objects a plain policy run's admission policy refused (misses and puts).
  public var declined: Int64 = 0
  public var memoryEvictions: Int64 = 0
  public var diskEvictions: Int64 = 0
  /// Cleanup and purge runs (memory clears and trims, disk cleanups, flushes).
  public var purges: Int64 = 0
  /// Objects removed by purges.
  public var purged: Int64 = 0
  /// Requests whose record states what the trace's own cache did (hit or miss) and whose
  /// simulated outcome agrees, or not; the first ``CacheEngine/disagreementLimit`` disagreements.
  public var observedAgreements: Int64 = 0
  public var observedDisagreements: Int64 = 0
  public var disagreements: [ObservedDisagreement] = []
  /// Disk activity (from the backend).
  public var disk = DiskCounters()
  /// Per-request latency in microseconds: modelled, plus measured disk time with the file backend.
  public var latency: Histogram<UInt64>
  /// Latency by what answered each request, and disk writes' costs; nil for a plain policy run.
  public var tiers: TierLatencies?

  /// Zero counters, latencies at three significant digits: up to an hour without resizing, and
  /// longer ones (a huge object from a slow origin, a trace's own `latency`) by growing the
  /// histogram's range, never by dropping them.
  public init() {
    latency = Histogram(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    latency.autoResize = true
    tiers = TierLatencies()
  }

  /// Zero counters with an empty latency histogram of a few bytes (the full one takes about
  /// 190 KB): those of a plain policy run, which models no latency.
  static var withoutLatency: EngineStats { EngineStats(latency: Histogram(numberOfSignificantValueDigits: .zero)) }

  private init(latency: Histogram<UInt64>) {
    self.latency = latency
  }

  public var hits: Int64 { memoryHits + diskHits }
  public var misses: Int64 { requests - hits }
  public var missBytes: Int64 { requestBytes - hitBytes }
}
