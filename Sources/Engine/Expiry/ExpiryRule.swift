import CacheCore

/// How a tier decides whether a response may be stored and whether a stored object may still
/// be served. One rule per file; library rules live in their preset's file.
public protocol ExpiryRule: Sendable {
  /// The name `--expiry` accepts and reports print (with parameters, e.g. `ttl:300s,sliding`).
  var name: String { get }
  /// Whether the response's headers let the tier store it (statuses are the library's rule).
  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool
  /// Sets the library expiry of a newly stored (or re-stored, or revalidated) object.
  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64)
  /// What a lookup at `now` may do with `metadata`.
  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness
  /// ``freshness(of:now:)`` of metadata read in place (a tier's table): the default, which each
  /// rule's conformance gets specialised, reads only the fields the rule uses, where passing the
  /// stored value through a protocol call copies all of it.
  func freshness(at metadata: UnsafePointer<EntryMetadata>, now: Int64) -> Freshness
  /// Restarts a sliding expiry on a hit.
  func touch(_ metadata: inout EntryMetadata, now: Int64)
  /// Whether a stale object may be served when the origin fails (RFC 5861 stale-if-error).
  func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool
  /// Whether a lookup that finds the object expired deletes it at once (not only on refetch).
  var removesExpiredAtLookup: Bool { get }
}

extension ExpiryRule {
  public func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool { true }
  public func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    metadata.expiresAt = .max
  }
  public func touch(_ metadata: inout EntryMetadata, now: Int64) {}
  @inline(__always)
  public func freshness(at metadata: UnsafePointer<EntryMetadata>, now: Int64) -> Freshness {
    freshness(of: metadata.pointee, now: now)
  }
  public func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool { false }
  public var removesExpiredAtLookup: Bool { false }
}

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
