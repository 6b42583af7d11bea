import CacheCore
import Traces

/// What the HTTP side of a trace is like: how cacheable its responses say they are
/// (`Cache-Control` directives, stated freshness lifetimes, heuristic freshness, validators,
/// `Vary`, credentials), its statuses, methods, content classes and hosts, its request rate
/// over time, and what a real cache on the path did (the observed outcomes).
///
/// Filled one request at a time from the attributes every HTTP reader (and the `cachelab`
/// CSV) gives; memory: one counter per second of trace time with requests, plus the reader's
/// tallies (one entry per host).
public struct HTTPInspection: Sendable {
  /// `get` requests counted (the figures below are shares of these) and invalidations.
  public var requests: Int64 = 0
  public var invalidations: Int64 = 0

  /// Requests whose response carried `Cache-Control`, and each directive that matters.
  public var cacheControl: Int64 = 0
  public var noStore: Int64 = 0
  public var isPrivate: Int64 = 0
  public var noCache: Int64 = 0
  public var mustRevalidate: Int64 = 0
  public var immutable: Int64 = 0
  public var sharedMaxAge: Int64 = 0
  public var staleWhileRevalidate: Int64 = 0

  /// Stated freshness lifetime (`max-age`, else `Expires` − `Date`; an invalid `Expires` is
  /// 0 s) by class: see ``lifetimeClasses``.
  public var lifetimes: [Int64] = Array(repeating: 0, count: HTTPInspection.lifetimeClasses.count)
  /// No stated lifetime but a `Last-Modified`: a cache may compute a heuristic one (RFC 9111 §4.2.2).
  public var heuristic: Int64 = 0
  /// Neither a stated lifetime nor `Last-Modified`.
  public var noFreshness: Int64 = 0

  /// Validators: both, ETag only, Last-Modified only, none.
  public var validators: [Int64] = [0, 0, 0, 0]
  public static let validatorClasses = ["ETag and Last-Modified", "ETag only", "Last-Modified only", "none"]

  public var vary: Int64 = 0
  public var authorization: Int64 = 0
  /// Requests by content class (indexed by `ContentClass.rawValue`).
  public var contentClasses: [Int64] = Array(repeating: 0, count: ContentClass.allCases.count)

  /// Observed outcomes: served by the upstream cache, fetched by it, answered by the client's own cache.
  public var observedHits: Int64 = 0
  public var observedMisses: Int64 = 0
  public var observedClientHits: Int64 = 0

  /// Methods, statuses (as recorded: 304 stays 304) and hosts of every record, when the
  /// reader tallies them (HTTP logs and captures; not the `cachelab` CSV).
  public var tallies: TrafficBook.Tallies?

  /// Requests per second of trace time since the first request: (requests, observed hits,
  /// requests with an observed upstream outcome).
  private var perSecond: [Int64: (Int64, Int64, Int64)] = [:]
  public private(set) var firstTime: Int64 = 0

  /// Upper bounds (seconds, inclusive) of the lifetime classes, and their names.
  public static let lifetimeBounds: [Int64] = [0, 60, 3_600, 86_400, 604_800, 2_592_000, .max]
  public static let lifetimeClasses = [
    "0 s", "1 s – 1 min", "1 min – 1 h", "1 h – 1 day", "1 day – 1 week",
    "1 week – 30 days", "over 30 days",
  ]

  public init() {}

  /// Counts one request with its attributes.
  public mutating func add(_ request: Request, _ row: RequestAttributes) {
    guard request.operation == .get else {
      if request.operation == .delete { invalidations += 1 }
      return
    }
    if requests == 0 { firstTime = request.time }
    requests += 1
    let control = row.cacheControl
    if control.isPresent { cacheControl += 1 }
    if control.noStore { noStore += 1 }
    if control.isPrivate { isPrivate += 1 }
    if control.noCache { noCache += 1 }
    if control.mustRevalidate || control.proxyRevalidate { mustRevalidate += 1 }
    if control.immutable { immutable += 1 }
    if control.sharedMaxAge >= 0 { sharedMaxAge += 1 }
    if control.staleWhileRevalidate >= 0 { staleWhileRevalidate += 1 }
    if let lifetime = Self.statedLifetime(row) {
      lifetimes[Self.lifetimeBounds.firstIndex { lifetime <= $0 } ?? lifetimes.count - 1] += 1
    } else if row.lastModified != RequestAttributes.absent {
      heuristic += 1
    } else {
      noFreshness += 1
    }
    let hasETag = row.etag != 0
    let hasDate = row.lastModified != RequestAttributes.absent
    validators[hasETag ? (hasDate ? 0 : 1) : (hasDate ? 2 : 3)] += 1
    if row.vary { vary += 1 }
    if row.authorization || row.url.hasCredentials { authorization += 1 }
    contentClasses[Int(row.contentClass.rawValue)] += 1
    let second = max(0, request.time - firstTime) / 1_000_000
    var slot = perSecond[second] ?? (0, 0, 0)
    slot.0 += 1
    switch row.observed {
    case .upstreamHit:
      observedHits += 1
      slot.1 += 1
      slot.2 += 1
    case .upstreamMiss:
      observedMisses += 1
      slot.2 += 1
    case .clientHit: observedClientHits += 1
    case .unknown: break
    }
    perSecond[second] = slot
  }

  /// The lifetime the response states, in seconds: `max-age`, else `Expires` − `Date` (an
  /// invalid `Expires` is already expired), else nil.
  static func statedLifetime(_ row: RequestAttributes) -> Int64? {
    if row.cacheControl.maxAge >= 0 { return row.cacheControl.maxAge }
    if row.expires == RequestAttributes.invalidDate { return 0 }
    guard row.expires != RequestAttributes.absent, row.date != RequestAttributes.absent else { return nil }
    return max(0, row.expires - row.date) / 1_000_000
  }

  /// One interval of the request rate.
  public struct Interval: Sendable, Equatable {
    /// Seconds since the first request at which the interval starts.
    public var start: Int64
    public var requests: Int64
    public var observedHits: Int64
    /// Requests in the interval whose record says what the upstream cache did.
    public var observedKnown: Int64
  }

  /// The request rate in at most `rows` equal intervals of a round length (1 s, 10 s, 1 min,
  /// 10 min, 1 h, 6 h, 1 day, 1 week, …), and that length in seconds.
  public func rate(rows: Int = 24) -> (seconds: Int64, intervals: [Interval]) {
    guard let last = perSecond.keys.max() else { return (1, []) }
    var length: Int64 = 1
    for candidate: Int64 in [1, 10, 60, 600, 3_600, 21_600, 86_400, 604_800] {
      length = candidate
      if last / candidate < Int64(rows) { break }
    }
    while last / length >= Int64(rows) { length *= 2 }
    var intervals = (0...(last / length)).map {
      Interval(start: $0 * length, requests: 0, observedHits: 0, observedKnown: 0)
    }
    for (second, slot) in perSecond {
      let index = Int(second / length)
      intervals[index].requests += slot.0
      intervals[index].observedHits += slot.1
      intervals[index].observedKnown += slot.2
    }
    return (length, intervals)
  }
}
