/// A parsed `Cache-Control` response header (RFC 9111 §5.2.2).
///
/// Directive names are case-insensitive; `max-age="60"` (quoted) is accepted. A directive
/// with a missing or non-integer argument, or a duplicated delta-seconds directive, marks the
/// header ``isInvalid`` (RFC 9111 §4.2.1: treat the response as stale). Unknown extensions
/// are ignored. A trivial value type so it travels with requests without allocating.
@frozen
public struct CacheControl: Equatable, Sendable {
  /// Whether the header was present at all.
  public var isPresent = false
  /// `max-age`, `s-maxage`, `stale-while-revalidate`, `stale-if-error` in seconds, or -1.
  public var maxAge: Int64 = -1
  public var sharedMaxAge: Int64 = -1
  public var staleWhileRevalidate: Int64 = -1
  public var staleIfError: Int64 = -1
  /// Boolean directives.
  public var noStore = false
  public var noCache = false
  public var mustRevalidate = false
  public var proxyRevalidate = false
  public var isPublic = false
  public var isPrivate = false
  public var immutable = false
  /// A directive had a bad or duplicated argument.
  public var isInvalid = false

  /// An absent header.
  @inlinable public init() {}

  /// Parses a header value such as `public, max-age=3600, stale-while-revalidate=60`.
  public init(parsing text: String) {
    self.init()
    isPresent = true
    for rawDirective in text.split(separator: ",") {
      let directive = rawDirective.drop(while: { $0 == " " || $0 == "\t" })
      guard !directive.isEmpty else { continue }
      let parts = directive.split(separator: "=", maxSplits: 1)
      let name = parts[0].trimmingCharacters().lowercased()
      let argument: Int64? = parts.count == 2 ? Self.deltaSeconds(parts[1]) : nil
      func seconds(_ field: inout Int64) {
        if let argument, field < 0 { field = argument } else { isInvalid = true }
      }
      switch name {
      case "max-age": seconds(&maxAge)
      case "s-maxage": seconds(&sharedMaxAge)
      case "stale-while-revalidate": seconds(&staleWhileRevalidate)
      case "stale-if-error": seconds(&staleIfError)
      case "no-store": noStore = true
      case "no-cache": noCache = true
      case "must-revalidate": mustRevalidate = true
      case "proxy-revalidate": proxyRevalidate = true
      case "public": isPublic = true
      case "private": isPrivate = true
      case "immutable": immutable = true
      default: break
      }
    }
  }

  /// A header value that parses back to this value (directives in a fixed order; an invalid
  /// header ends with a bare `max-age`, which keeps it invalid). An absent header is "".
  public var headerValue: String {
    guard isPresent else { return "" }
    var parts: [String] = []
    for (name, value) in [
      ("max-age", maxAge), ("s-maxage", sharedMaxAge), ("stale-while-revalidate", staleWhileRevalidate),
      ("stale-if-error", staleIfError),
    ] where value >= 0 {
      parts.append("\(name)=\(value)")
    }
    for (name, set) in [
      ("no-store", noStore), ("no-cache", noCache), ("must-revalidate", mustRevalidate),
      ("proxy-revalidate", proxyRevalidate), ("public", isPublic), ("private", isPrivate), ("immutable", immutable),
    ] where set {
      parts.append(name)
    }
    if isInvalid { parts.append("max-age") }
    // A present header without a directive this type knows: a lone comma keeps it present.
    return parts.isEmpty ? "," : parts.joined(separator: ", ")
  }

  static func deltaSeconds(_ text: Substring) -> Int64? {
    var value = text.trimmingCharacters()
    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
    guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    // Values beyond 2^31 are clamped, as RFC 9111 §1.2.2 recommends.
    return min(Int64(value) ?? Int64(Int32.max), Int64(Int32.max))
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingCharacters() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
