import CacheCore

/// How a tier decides whether a stored object may still be served.
public enum ExpiryModel: Sendable, Equatable, CustomStringConvertible {
  /// Objects never expire (they leave only by eviction or cleanup).
  case none
  /// A library time to live: the trace's `ttl` column, else `seconds` (0: never); with
  /// `sliding`, every hit restarts it (Kingfisher's `.cacheTime`). An expired object is a
  /// miss (no revalidation).
  case ttl(seconds: Int64, sliding: Bool)
  /// HTTP caching per RFC 9111 for a private cache (or a shared one: s-maxage, private,
  /// proxy-revalidate), with heuristic freshness `heuristic` × (Date − Last-Modified); stale
  /// objects are revalidated (304/200), honouring no-cache, must-revalidate,
  /// stale-while-revalidate and stale-if-error.
  case http(heuristic: Double = 0.1, shared: Bool = false)
  /// MKNetworkKit 2.x's decision table: `faithful` keeps its bugs (any Cache-Control makes a
  /// response fresh forever; a 304 replaces the body with an empty one); otherwise the
  /// intended behaviour (expiry = store time + max-age | Expires | 600 s | 7 d for images
  /// without validators; 304 keeps the body).
  case mknetworkkit(faithful: Bool)
  /// swift-corelibs-foundation URLCache: `canCache` rules evaluated on the stored response at
  /// each lookup (max-age counted from min(Date, store time), a past Expires, no-cache,
  /// no-store and uncacheable statuses make it unusable); no heuristics, no revalidation.
  case urlcacheLinux

  /// What a lookup may do with a stored object.
  public enum Freshness: Equatable, Sendable {
    /// Serve it.
    case fresh
    /// Do not serve it; fetch again (no revalidation).
    case expired
    /// Revalidate before serving (conditional request if validators exist).
    case mustRevalidate
    /// Serve it now and revalidate in the background.
    case serveThenRevalidate
  }

  public var description: String {
    switch self {
    case .none: return "none"
    case .ttl(let duration, let sliding): return "ttl:\(Duration.format(duration))\(sliding ? ",sliding" : "")"
    case .http(let heuristic, let shared):
      let options = (heuristic == 0.1 ? [] : ["heuristic=\(heuristic)"]) + (shared ? ["shared"] : [])
      return options.isEmpty ? "http" : "http:" + options.joined(separator: ",")
    case .mknetworkkit(let faithful): return faithful ? "mknetworkkit" : "mknetworkkit-intended"
    case .urlcacheLinux: return "urlcache-linux"
    }
  }

  /// Parses `none`, `ttl:300s[,sliding]`, `http[:heuristic=0.1][,shared]`, `mknetworkkit`,
  /// `mknetworkkit-intended` or `urlcache-linux`.
  public init(parsing text: String) throws(ConfigurationError) {
    let lowered = text.lowercased()
    switch lowered {
    case "none": self = .none
    case "http": self = .http()
    case "mknetworkkit": self = .mknetworkkit(faithful: true)
    case "mknetworkkit-intended": self = .mknetworkkit(faithful: false)
    case "urlcache-linux": self = .urlcacheLinux
    default:
      if lowered.hasPrefix("http:") {
        var heuristic = 0.1
        var shared = false
        for option in lowered.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false) {
          if option == "shared" {
            shared = true
          } else if option.hasPrefix("heuristic="), let value = Double(option.dropFirst("heuristic=".count)),
            value >= 0, value <= 1
          {
            heuristic = value
          } else {
            throw ConfigurationError(
              .invalidValue, "expiry '\(text)': write http[:heuristic=F][,shared] with F in 0...1, e.g. http:shared")
          }
        }
        self = .http(heuristic: heuristic, shared: shared)
      } else if lowered.hasPrefix("ttl:") {
        let parts = lowered.dropFirst(4).split(separator: ",")
        guard let first = parts.first, let micros = Duration.microseconds(String(first)),
          parts.count == 1 || (parts.count == 2 && parts[1] == "sliding")
        else {
          throw ConfigurationError(
            .invalidValue, "expiry '\(text)': write ttl:DURATION[,sliding], e.g. ttl:300s,sliding")
        }
        self = .ttl(seconds: micros, sliding: parts.count == 2)
      } else {
        throw ConfigurationError(
          .invalidValue,
          "unknown expiry '\(text)'; known: none, ttl:DURATION[,sliding], http[:heuristic=F][,shared], mknetworkkit, mknetworkkit-intended, urlcache-linux"
        )
      }
    }
  }

  /// Whether a fetched response may be stored at all.
  public func isStorable(_ attributes: RequestAttributes) -> Bool {
    guard !attributes.originFailed, attributes.status < 400 || attributes.status == 404 else {
      return false
    }
    switch self {
    case .none, .ttl, .mknetworkkit: return true
    case .http(_, let shared):
      return HTTPFreshness.isStorable(
        HTTPFreshness.Response(
          cacheControl: attributes.cacheControl, expires: attributes.expires, status: attributes.status, requestTime: 0,
          responseTime: 0), shared: shared)
    case .urlcacheLinux:
      return !attributes.cacheControl.noStore && !attributes.cacheControl.noCache
        && Self.urlcacheStatuses.contains(attributes.status)
    }
  }

  static let urlcacheStatuses: Set<Int16> = [200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501]

  /// Sets the library expiry of a newly stored (or re-stored) object.
  public func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    switch self {
    case .ttl(let seconds, _):
      let duration = attributes.ttl >= 0 ? attributes.ttl : seconds
      metadata.ttl = duration
      metadata.expiresAt = duration > 0 ? now + duration : .max
    case .mknetworkkit(faithful: false):
      let cc = metadata.response.cacheControl
      let duration: Int64
      if cc.noCache {
        duration = 0
      } else if cc.maxAge >= 0 {
        duration = cc.maxAge * microsecondsPerSecond
      } else if metadata.response.expires != RequestAttributes.absent {
        duration = max(0, metadata.response.expires - now)
      } else if metadata.contentClass == .image && !metadata.hasValidators {
        duration = 7 * 86_400 * microsecondsPerSecond
      } else {
        duration = 600 * microsecondsPerSecond
      }
      metadata.ttl = duration
      metadata.expiresAt = now + duration
    default:
      metadata.expiresAt = .max
    }
  }

  /// Decides what a lookup at `now` may do with `metadata`.
  public func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    switch self {
    case .none:
      return .fresh
    case .ttl:
      return metadata.expiresAt > now ? .fresh : .expired
    case .http(let heuristic, let shared):
      let response = metadata.response
      if response.cacheControl.noCache { return .mustRevalidate }
      let staleness = HTTPFreshness.staleness(response, now: now, heuristic: heuristic, shared: shared)
      if staleness < 0 { return .fresh }
      let cc = response.cacheControl
      if !HTTPFreshness.forbidsStale(cc, shared: shared), cc.staleWhileRevalidate >= 0,
        staleness < cc.staleWhileRevalidate * microsecondsPerSecond
      {
        return .serveThenRevalidate
      }
      return .mustRevalidate
    case .mknetworkkit(faithful: true):
      let response = metadata.response
      if response.cacheControl.isPresent || !metadata.hasValidators { return .fresh }
      if response.expires != RequestAttributes.absent && response.expires != RequestAttributes.invalidDate {
        return response.expires > now ? .fresh : .serveThenRevalidate
      }
      return metadata.contentClass == .image ? .fresh : .serveThenRevalidate
    case .mknetworkkit(faithful: false):
      return metadata.expiresAt > now ? .fresh : .serveThenRevalidate
    case .urlcacheLinux:
      let response = metadata.response
      let cc = response.cacheControl
      if cc.noCache || cc.noStore || !Self.urlcacheStatuses.contains(response.status) { return .expired }
      if cc.maxAge >= 0 {
        let start = min(
          response.date == RequestAttributes.absent ? metadata.modifiedAt : response.date, metadata.modifiedAt)
        return now < start + cc.maxAge * microsecondsPerSecond ? .fresh : .expired
      }
      if response.expires != RequestAttributes.absent {
        return response.expires != RequestAttributes.invalidDate && response.expires > now ? .fresh : .expired
      }
      return .fresh
    }
  }

  /// Restarts a sliding expiry on a hit.
  public func touch(_ metadata: inout EntryMetadata, now: Int64) {
    if case .ttl(_, true) = self, metadata.ttl > 0 { metadata.expiresAt = now + metadata.ttl }
  }

  /// Whether stale serving on an origin error is allowed (RFC 5861 stale-if-error).
  public func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    guard case .http(let heuristic, let shared) = self else {
      // Library caches that revalidate in the background already served the body.
      return false
    }
    let cc = metadata.response.cacheControl
    guard !HTTPFreshness.forbidsStale(cc, shared: shared), !cc.noCache, cc.staleIfError >= 0 else { return false }
    return HTTPFreshness.staleness(metadata.response, now: now, heuristic: heuristic, shared: shared)
      < cc.staleIfError * microsecondsPerSecond
  }
}
