import CacheCore

/// A request whose simulated outcome differs from what the trace's own cache did.
public struct ObservedDisagreement: Sendable, Equatable {
  /// The request's trace time (µs) and key.
  public var time: Int64
  public var key: UInt64
  /// What the record says the real cache did (`ObservedOutcome.upstreamHit` or `.upstreamMiss`).
  public var observed: ObservedOutcome

  /// The simulated outcome: the opposite of ``observed``.
  public var simulatedHit: Bool { observed == .upstreamMiss }
}

/// Per-request agreement with the trace's own cache: a simulated hit is a request answered
/// from a tier (fresh, stale while revalidating, or on an origin error) or revalidated with
/// a 304, as logs count nginx's REVALIDATED and Squid's TCP_REFRESH_UNMODIFIED (not where the
/// library's log calls it a miss, as Varnish's does).
extension CacheEngine {
  /// At most this many disagreements are kept (about 3 MB); the counts go on.
  public static let disagreementLimit = 100_000

  /// Requests answered without a full fetch so far, as the library's log counts them.
  @inline(__always) var answeredWithoutFetch: Int64 {
    counters.memoryHits &+ counters.diskHits &+ (revalidationLogsAsHit ? counters.revalidated304 : 0)
  }

  /// Counts whether `request`, whose record says `observed`, was simulated the same way,
  /// given ``answeredWithoutFetch`` before it was handled. O(1).
  @inline(never)
  func compare(_ request: Request, observed: ObservedOutcome, answeredBefore: Int64) {
    let simulatedHit = answeredWithoutFetch != answeredBefore
    if simulatedHit == (observed == .upstreamHit) {
      counters.observedAgreements += 1
      return
    }
    counters.observedDisagreements += 1
    if counters.disagreements.count < Self.disagreementLimit {
      counters.disagreements.append(ObservedDisagreement(time: request.time, key: request.key, observed: observed))
    }
  }
}
