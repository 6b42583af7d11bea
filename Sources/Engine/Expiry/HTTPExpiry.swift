import CacheCore

/// HTTP caching per RFC 9111 for a private cache (or a shared one: s-maxage, private,
/// proxy-revalidate), with heuristic freshness `heuristic` × (Date − Last-Modified); stale
/// objects are revalidated (304/200), honouring no-cache, must-revalidate,
/// stale-while-revalidate and stale-if-error.
struct HTTPExpiry: ExpiryRule {
  var heuristic: Double
  var shared: Bool

  var name: String {
    let options = (heuristic == 0.1 ? [] : ["heuristic=\(heuristic)"]) + (shared ? ["shared"] : [])
    return options.isEmpty ? "http" : "http:" + options.joined(separator: ",")
  }

  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    HTTPFreshness.isStorable(
      HTTPFreshness.Response(
        cacheControl: attributes.cacheControl, expires: attributes.expires, status: attributes.status, requestTime: 0,
        responseTime: 0), shared: shared)
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
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
  }

  func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    let cc = metadata.response.cacheControl
    guard !HTTPFreshness.forbidsStale(cc, shared: shared), !cc.noCache, cc.staleIfError >= 0 else { return false }
    return HTTPFreshness.staleness(metadata.response, now: now, heuristic: heuristic, shared: shared)
      < cc.staleIfError * microsecondsPerSecond
  }

  init(heuristic: Double = 0.1, shared: Bool = false) {
    self.heuristic = heuristic
    self.shared = shared
  }
}

extension ExpiryRuleEntry {
  /// `http[:heuristic=F][,shared]`.
  public static let http = ExpiryRuleEntry(
    name: "http",
    summary: "RFC 9111 freshness and revalidation (304/200), stale-while-revalidate, stale-if-error",
    parameters: [
      ParameterSpec(
        "heuristic", default: "0.1", .real(0...1), help: "heuristic freshness: this × (Date − Last-Modified)"),
      ParameterSpec(
        "shared", default: "false", .boolean, help: "a shared cache (CDN, proxy): s-maxage wins, private is not stored"),
    ]
  ) { parameters in
    HTTPExpiry(heuristic: parameters.real("heuristic"), shared: parameters.boolean("shared"))
  }
}
