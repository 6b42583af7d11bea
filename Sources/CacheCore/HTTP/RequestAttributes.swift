/// An application lifecycle event in a trace (the `event` column).
@frozen
public enum LifecycleEvent: UInt8, Sendable, CaseIterable {
  case none
  /// The system asks the app to free memory.
  case memoryWarning
  /// The app moves to the background.
  case background
  /// The app returns to the foreground.
  case foreground
  /// The app is about to be terminated.
  case terminate
  /// The process starts again: memory tiers are empty, the disk is kept.
  case launch
  /// macOS: the app resigns active (or hides).
  case resignActive

  /// The name used in traces (`memory_warning`, `background`, ...).
  public var name: String {
    switch self {
    case .none: return ""
    case .memoryWarning: return "memory_warning"
    case .background: return "background"
    case .foreground: return "foreground"
    case .terminate: return "terminate"
    case .launch: return "launch"
    case .resignActive: return "resign_active"
    }
  }

  /// The event named `name`, or nil.
  public init?(name: some StringProtocol) {
    let lowered = name.lowercased()
    guard let match = Self.allCases.first(where: { $0.name == lowered && $0 != .none }) else { return nil }
    self = match
  }
}

/// A response content class (the `class` column), which some libraries treat differently.
@frozen
public enum ContentClass: UInt8, Sendable, CaseIterable {
  case data
  case image
  case voice
  case object

  /// The name used in traces and folder names.
  public var name: String {
    switch self {
    case .data: return "data"
    case .image: return "image"
    case .voice: return "voice"
    case .object: return "object"
    }
  }

  /// The class named `name`, or a MIME type (`image/jpeg` is an image), or nil.
  public init?(name: some StringProtocol) {
    let lowered = name.lowercased()
    if let match = Self.allCases.first(where: { $0.name == lowered }) {
      self = match
    } else if lowered.hasPrefix("image/") {
      self = .image
    } else if lowered.hasPrefix("audio/") {
      self = .voice
    } else if lowered.contains("/") {
      self = .data
    } else {
      return nil
    }
  }
}

/// What a real cache did with a request, as a log or capture records it (HTTP traces only).
@frozen
public enum ObservedOutcome: UInt8, Sendable, CaseIterable {
  /// The record does not say.
  case unknown
  /// The upstream cache the record names answered without a full fetch from the origin
  /// (a fresh or stale hit, or a revalidation the origin answered with 304).
  case upstreamHit
  /// The upstream cache fetched the response from the origin (or passed the request on).
  case upstreamMiss
  /// The recording client answered from its own cache (HAR).
  case clientHit

  /// The value of the `cachelab` CSV's `observed` column (empty when unknown).
  public var csvName: String {
    switch self {
    case .unknown: ""
    case .upstreamHit: "hit"
    case .upstreamMiss: "miss"
    case .clientHit: "client-hit"
    }
  }
}

/// What a rich trace row says besides time, key and size: the origin's response headers and
/// state at that moment, the app's cost of the object, and lifecycle events.
///
/// A trivial value type kept next to each ``Request`` in a ``RequestBatch`` (about 140
/// bytes). Absent fields use the sentinels documented on each property.
@frozen
public struct RequestAttributes: Equatable, Sendable {
  /// Time sentinel: the field is absent.
  public static let absent: Int64 = .min
  /// Time sentinel for `expires`: present but unparsable (RFC 9111: already expired).
  public static let invalidDate: Int64 = .min + 1

  /// Caller-defined cost (e.g. decoded image bytes), or -1 to use the size.
  public var cost: Int64 = -1
  /// Library-level time to live in microseconds, or -1.
  public var ttl: Int64 = -1
  /// Response content class.
  public var contentClass: ContentClass = .data
  /// The origin's current version of the object, or -1 if unknown.
  public var version: Int64 = -1
  /// Response `Cache-Control`.
  public var cacheControl = CacheControl()
  /// Response `Expires`, `Date`, `Last-Modified` (µs of trace time) or ``absent``/``invalidDate``.
  public var expires: Int64 = RequestAttributes.absent
  public var date: Int64 = RequestAttributes.absent
  public var lastModified: Int64 = RequestAttributes.absent
  /// Response `Age` header in seconds, or -1.
  public var age: Int64 = -1
  /// Hash of the ETag's opaque value (0 = no ETag), and whether it is weak (`W/`).
  public var etag: UInt64 = 0
  public var etagIsWeak = false
  /// Origin status for this request (200 by default; 0 = network failure).
  public var status: Int16 = 200
  /// Origin round trip in microseconds, or -1 for the engine's default.
  public var latency: Int64 = -1
  /// The lifecycle event of an `event` row.
  public var event: LifecycleEvent = .none
  /// What the key says when it is a URL (scheme, credentials, host + port + path identity).
  public var url = URLKey()
  /// Bytes the response takes when archived by the library (Linux `URLCache` charges it), or -1
  /// to let the library estimate it.
  public var storedSize: Int64 = -1
  /// The response carries a `Vary` header.
  public var vary = false
  /// That `Vary` header is `*` (the response varies on something outside the request).
  public var varyAll = false
  /// The response carries `Set-Cookie`.
  public var setCookie = false
  /// The request carried `Authorization`, or the response asked for authentication
  /// (`WWW-Authenticate`, `Proxy-Authenticate`).
  public var authorization = false
  /// What a real cache did with this request, where the trace records it.
  public var observed: ObservedOutcome = .unknown

  @inlinable public init() {}

  /// The cost to charge a cost-limited tier for `request`.
  @inlinable
  public func cost(for request: Request) -> Int64 { cost >= 0 ? cost : request.size }

  /// Whether the origin failed (network error or 5xx).
  @inlinable public var originFailed: Bool { status == 0 || status >= 500 }
}
