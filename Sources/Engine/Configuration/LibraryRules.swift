import CacheCore

/// The decisions a library makes around its tiers, which a preset states in its own file:
/// whether a request uses the cache at all, the key a response is filed under, which
/// statuses are stored, what an entry costs, what a promoted disk hit costs and what a 304
/// does. The engine asks; it names no library.
public protocol LibraryRules: Sendable {
  /// Whether the library looks the request up and stores its response at all.
  func usesCache(_ attributes: RequestAttributes) -> Bool
  /// The key the library files the response under.
  func cacheKey(_ key: UInt64, _ attributes: RequestAttributes) -> UInt64
  /// Whether a response with `status` (the origin's answer) is stored.
  func storesStatus(_ status: Int16) -> Bool
  /// The cost a cost-limited tier is charged for the response.
  func cost(_ request: Request, _ attributes: RequestAttributes) -> Int64
  /// The cost a disk hit is charged when it is promoted into memory.
  func promotionCost(_ stored: EntryMetadata) -> Int64
  /// What a 304 answer to a revalidation does to the stored object.
  var notModified: NotModifiedRule { get }
  /// Whether a 5xx answer to a full fetch is a response like any other (stored when the
  /// rules allow, nginx) rather than an origin failure (the default).
  var fetchesErrorResponses: Bool { get }
  /// Whether the library's own log counts a revalidation answered 304 as a hit (nginx
  /// REVALIDATED, Squid TCP_REFRESH_UNMODIFIED) rather than a miss (Varnish's conditional fetch).
  var logsRevalidationAsHit: Bool { get }
}

/// What a library does with a 304 (Not Modified) answer.
public enum NotModifiedRule: Sendable, Equatable {
  /// Keep the body and refresh the stored headers and dates (RFC 9111 §4.3.4).
  case refreshHeaders
  /// Store the 304 itself as the response: an empty body and the 304's headers.
  case storeEmptyBody
}

extension LibraryRules {
  public func usesCache(_ attributes: RequestAttributes) -> Bool { true }
  public func cacheKey(_ key: UInt64, _ attributes: RequestAttributes) -> UInt64 { key }
  public func storesStatus(_ status: Int16) -> Bool { (200..<300).contains(status) }
  public func cost(_ request: Request, _ attributes: RequestAttributes) -> Int64 { attributes.cost(for: request) }
  public func promotionCost(_ stored: EntryMetadata) -> Int64 { stored.cost }
  public var notModified: NotModifiedRule { .refreshHeaders }
  public var fetchesErrorResponses: Bool { false }
  public var logsRevalidationAsHit: Bool { true }
}

/// The rules of an engine built from `--memory`/`--disk` (no library): the trace key, the
/// statuses RFC 9110 lets a cache store (2xx, 3xx, and the heuristically cacheable 4xx),
/// the trace's cost, and 304s that refresh headers.
public struct GenericRules: LibraryRules {
  public init() {}

  public func storesStatus(_ status: Int16) -> Bool {
    (200..<400).contains(status) || HTTPFreshness.heuristicallyCacheable.contains(status)
  }
}
