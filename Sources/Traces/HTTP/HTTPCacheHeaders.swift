import CacheCore

/// What a cache-status response header says a real cache did: `X-Cache` (Squid, Varnish
/// setups, CloudFront's `Hit from cloudfront`, Fastly's `MISS, HIT` — the last entry is the
/// cache nearest the client), nginx's conventional `X-Cache-Status` (its
/// `$upstream_cache_status`), and Cloudflare's `CF-Cache-Status`.
enum HTTPCacheHeaders {
  /// What the standard `Cache-Status` header (RFC 9211) says the cache nearest the client did
  /// (its member is the last: each cache appends one): `hit` is a hit; `fwd=…` went to the
  /// next hop, a hit all the same when that hop answered 304 to a revalidation
  /// (`fwd=stale;fwd-status=304`, as a REVALIDATED); anything else says nothing.
  static func cacheStatus(_ value: String) -> ObservedOutcome {
    guard let member = value.split(separator: ",").last else { return .unknown }
    let parameters = member.split(separator: ";").dropFirst().map { $0.trimmingSpaces().lowercased() }
    if parameters.contains("hit") { return .upstreamHit }
    guard parameters.contains(where: { $0.hasPrefix("fwd=") }) else { return .unknown }
    return parameters.contains("fwd-status=304") ? .upstreamHit : .upstreamMiss
  }

  /// A hit for HIT, STALE, UPDATING, REVALIDATED and RefreshHit (served without a full fetch
  /// from the origin); a miss for MISS, EXPIRED, BYPASS and DYNAMIC; otherwise unknown.
  static func outcome(_ value: String) -> ObservedOutcome {
    let last = value.split(separator: ",").last.map { $0.uppercased() } ?? ""
    let words = last.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let first = words.first else { return .unknown }
    switch first {
    case "HIT", "STALE", "UPDATING", "REVALIDATED", "REFRESHHIT", "TCP_HIT", "TCP_MEM_HIT", "TCP_REFRESH_UNMODIFIED":
      return .upstreamHit
    case "MISS", "EXPIRED", "BYPASS", "DYNAMIC", "TCP_MISS", "TCP_REFRESH_MODIFIED":
      return .upstreamMiss
    default:
      return .unknown
    }
  }
}
