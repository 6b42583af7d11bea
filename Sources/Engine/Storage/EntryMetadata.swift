import CacheCore

/// What a tier remembers about one cached object besides its key: the stored response's
/// headers and times, the library's own dates and expiry, and the body's size and version.
public struct EntryMetadata: Equatable, Sendable {
  /// Body bytes as stored (0 after MKNetworkKit's 304 quirk empties it).
  public var size: Int64
  /// The cost a cost-limited tier charged.
  public var cost: Int64
  /// The origin version the body is (-1 unknown).
  public var version: Int64
  public var contentClass: ContentClass
  /// The stored response's freshness inputs (headers, request and response times).
  public var response: HTTPFreshness.Response
  /// Validators of the stored response.
  public var etag: UInt64
  public var etagIsWeak: Bool
  /// Library dates (trace time, µs): created, modified (stored again), last accessed.
  public var createdAt: Int64
  public var modifiedAt: Int64
  public var accessedAt: Int64
  /// Library expiry instant (`Int64.max`: never) and the duration a sliding expiry restarts.
  public var expiresAt: Int64
  public var ttl: Int64
  public var accessCount: Int32
  /// Whether the body was replaced by an empty one (MKNetworkKit stores a 304's empty body).
  public var bodyLost: Bool
  /// Whether the stored response's URL has a query, and its `Vary` is `*` (Squid's rules).
  public var urlHasQuery: Bool
  public var varyAll: Bool

  /// Metadata for `request` with `attributes` and `cost`, stored at `now` after an origin
  /// round trip of `latency` microseconds.
  public init(request: Request, attributes: RequestAttributes, cost: Int64, now: Int64, latency: Int64) {
    size = request.size
    self.cost = cost
    version = attributes.version
    contentClass = attributes.contentClass
    response = HTTPFreshness.Response(
      cacheControl: attributes.cacheControl, expires: attributes.expires, date: attributes.date,
      lastModified: attributes.lastModified, age: attributes.age,
      status: attributes.status == 0 ? 200 : attributes.status,
      requestTime: now, responseTime: now + latency)
    etag = attributes.etag
    etagIsWeak = attributes.etagIsWeak
    createdAt = now
    modifiedAt = now
    accessedAt = now
    expiresAt = .max
    ttl = -1
    accessCount = 0
    bodyLost = false
    urlHasQuery = attributes.url.hasQuery
    varyAll = attributes.varyAll
  }

  /// The metadata of an empty object stored at time 0, for storage not yet written.
  static let placeholder = EntryMetadata(
    request: Request(key: 0, size: 0), attributes: RequestAttributes(), cost: 0, now: 0, latency: 0)

  /// Whether a conditional request can be made (an ETag or a Last-Modified is stored).
  public var hasValidators: Bool { etag != 0 || response.lastModified != RequestAttributes.absent }

  /// Whether the origin, now holding `current`, would answer a conditional request with 304:
  /// the stored ETag weakly matches, or without ETags the stored Last-Modified is not older.
  public func validates(against current: RequestAttributes) -> Bool {
    if etag != 0 { return current.etag != 0 && etag == current.etag }
    guard response.lastModified != RequestAttributes.absent else { return false }
    return current.lastModified == RequestAttributes.absent || response.lastModified >= current.lastModified
  }
}
