import CacheCore

/// RFC 9111 calculations for a private (client) cache, or a shared one (`shared`: a CDN or
/// proxy, where `s-maxage` wins, `private` responses are not stored and `proxy-revalidate`
/// acts as `must-revalidate`), on trace time in microseconds.
///
/// Pure functions over a stored response, so they can be checked against hand-worked
/// examples. Times use `RequestAttributes.absent` for missing headers.
public enum HTTPFreshness {
  /// Status codes a cache may store and use heuristically (RFC 9110 §15.1).
  public static let heuristicallyCacheable: Set<Int16> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

  /// The parts of a stored response that freshness depends on.
  public struct Response: Equatable, Sendable {
    public var cacheControl: CacheControl
    public var expires: Int64
    public var date: Int64
    public var lastModified: Int64
    /// `Age` header in seconds, or -1.
    public var age: Int64
    public var status: Int16
    /// When the request was sent and the response received.
    public var requestTime: Int64
    public var responseTime: Int64

    public init(
      cacheControl: CacheControl = CacheControl(), expires: Int64 = RequestAttributes.absent,
      date: Int64 = RequestAttributes.absent, lastModified: Int64 = RequestAttributes.absent, age: Int64 = -1,
      status: Int16 = 200, requestTime: Int64, responseTime: Int64
    ) {
      self.cacheControl = cacheControl
      self.expires = expires
      self.date = date
      self.lastModified = lastModified
      self.age = age
      self.status = status
      self.requestTime = requestTime
      self.responseTime = responseTime
    }

    /// `Date`, or the receive time when absent (RFC 9110 §6.6.1).
    public var dateValue: Int64 { date == RequestAttributes.absent ? responseTime : date }
  }

  /// Whether the cache may store the response (RFC 9111 §3).
  public static func isStorable(_ response: Response, shared: Bool = false) -> Bool {
    let cc = response.cacheControl
    if cc.noStore { return false }
    if response.status < 200 { return false }
    if shared && cc.isPrivate { return false }
    return cc.isPublic || cc.isPrivate || response.expires != RequestAttributes.absent || cc.maxAge >= 0
      || (shared && cc.sharedMaxAge >= 0) || heuristicallyCacheable.contains(response.status)
  }

  /// Whether a stale response must not be served without revalidation (§5.2.2.2, §5.2.2.8).
  public static func forbidsStale(_ cc: CacheControl, shared: Bool = false) -> Bool {
    cc.mustRevalidate || (shared && cc.proxyRevalidate)
  }

  /// The freshness lifetime in microseconds (§4.2.1): s-maxage (shared caches only), else
  /// max-age, else Expires − Date, else
  /// `heuristic` × (Date − Last-Modified) for heuristically cacheable responses, else 0.
  /// Invalid directives or an invalid Expires make the response stale (lifetime 0).
  public static func lifetime(_ response: Response, heuristic: Double = 0.1, shared: Bool = false) -> Int64 {
    let cc = response.cacheControl
    if cc.isInvalid { return 0 }
    if shared && cc.sharedMaxAge >= 0 { return cc.sharedMaxAge * microsecondsPerSecond }
    if cc.maxAge >= 0 { return cc.maxAge * microsecondsPerSecond }
    if response.expires != RequestAttributes.absent {
      if response.expires == RequestAttributes.invalidDate { return 0 }
      return max(0, response.expires - response.dateValue)
    }
    guard heuristicallyCacheable.contains(response.status) || cc.isPublic,
      response.lastModified != RequestAttributes.absent
    else { return 0 }
    return Int64((Double(max(0, response.dateValue - response.lastModified)) * heuristic).rounded(.down))
  }

  /// The current age in microseconds at time `now` (§4.2.3).
  public static func currentAge(_ response: Response, now: Int64) -> Int64 {
    let apparentAge = max(0, response.responseTime - response.dateValue)
    let responseDelay = response.responseTime - response.requestTime
    let correctedAgeValue = max(response.age, 0) * microsecondsPerSecond + responseDelay
    let correctedInitialAge = max(apparentAge, correctedAgeValue)
    let residentTime = now - response.responseTime
    return correctedInitialAge + residentTime
  }

  /// Whether the response is fresh at `now`: lifetime strictly greater than the current age.
  public static func isFresh(_ response: Response, now: Int64, heuristic: Double = 0.1, shared: Bool = false) -> Bool {
    lifetime(response, heuristic: heuristic, shared: shared) > currentAge(response, now: now)
  }

  /// How long past its lifetime the response is at `now` (0 or positive when stale).
  public static func staleness(_ response: Response, now: Int64, heuristic: Double = 0.1, shared: Bool = false)
    -> Int64
  {
    currentAge(response, now: now) - lifetime(response, heuristic: heuristic, shared: shared)
  }
}
