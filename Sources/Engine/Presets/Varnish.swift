import CacheCore

extension EnginePreset {
  /// Varnish Cache 7.1.1 as Debian 12 packages it: `-s malloc,256m` and the builtin VCL.
  static let varnish = EnginePreset(
    name: "varnish",
    summary: "Varnish 7.1.1 (Debian): 256 MiB malloc LRU, default_ttl 120 s, grace 10 s, hit-for-miss, no revalidation",
    origin: "varnish-cache varnish-7.1.1: bin/varnishd/cache/cache_rfc2616.c, cache_hash.c, builtin.vcl; Debian unit",
    parameters: [
      ParameterSpec("malloc", default: "256MiB", .byteCount, help: "-s malloc,SIZE (0: unlimited)"),
      ParameterSpec("default-ttl", default: "120s", .duration, help: "-p default_ttl"),
      ParameterSpec("grace", default: "10s", .duration, help: "-p default_grace"),
      ParameterSpec(
        "keep", default: "0s", .duration,
        help: "-p default_keep: kept past grace for conditional fetches (misses that may be answered 304)"),
    ],
    modelled: [
      "ttl: s-maxage, else max-age, else Expires − Date (Expires − now when Date is within clock_skew of now;"
        + " 0 when Expires < Date), else default_ttl, from the response's arrival less its Age, for statuses"
        + " 200 203 204 300 301 304 404 410 414 (302 and 307 only with Cache-Control or Expires); other statuses"
        + " are not cached (cache_rfc2616.c RFC2616_Ttl 87-228)",
      "builtin.vcl vcl_backend_response: ttl <= 0, Set-Cookie, Cache-Control no-cache, no-store or private"
        + " (a substring match), or Vary: * make a hit-for-miss object: the next requests are misses and the"
        + " next cacheable response is stored (builtin.vcl 207-252)",
      "builtin.vcl vcl_recv: requests with Authorization are passed (never looked up or stored) (38-96)",
      "fresh while t_origin + ttl > now, in microseconds (cache_hash.c:482)",
      "grace (default_grace, or the response's stale-while-revalidate): a stale object is served as a hit and"
        + " refreshed by a background fetch, conditional when it has an ETag or Last-Modified (cache_hash.c HSH_Lookup"
        + " 545-576, cache_fetch.c:272-284); after grace a miss",
      "keep (default_keep): past ttl + grace a 200 with an ETag or Last-Modified stays for `keep`, and a request"
        + " fetches it again conditionally; a 304 rebuilds it from the kept body. It is a miss in varnishncsa and"
        + " in the comparison (cache_hash.c:486-494, 546-561; cache_fetch.c:272-284, 353-367, 692-696, 782-855)",
      "a 304 to a background fetch takes its ttl from the 304's own headers (cache_fetch.c:351-378, 476-485);"
        + " a 5xx answer makes the object hit-for-miss: the stale copy is gone (cache_fetch.c:749-750)",
      "eviction: LRU over the malloc size, nuking the least recently used (storage_lru.c LRU_NukeOne 167-210)",
      "key: URL and Host (builtin.vcl vcl_hash 119-131); Vary: Accept-Encoding is ignored (cache_vary.c:202-211)",
    ],
    notModelled: [
      "lru_interval (2 s): an object is moved to the LRU tail at most once per 2 s; the preset moves it on"
        + " every hit (the harness runs varnishd with -p lru_interval=0)",
      "shortlived (10 s): objects with ttl + grace + keep below it go to the unbounded Transient storage; the"
        + " preset charges them to malloc (the harness runs -p shortlived=0)",
      "the expiry thread's removal at ttl + grace + keep: the preset keeps an expired object in its storage"
        + " until it is nuked or looked up",
      "malloc's accounting of the object structure and headers (only the body counts), nuke_limit (50 per fetch)",
      "request Cookie (passed by builtin.vcl; traces carry no request cookies), request coalescing,"
        + " hit-for-miss objects' own 120 s lifetime and storage",
    ]
  ) { parameters in
    EngineConfiguration(
      name: "varnish",
      memory: .preset("lru", parameters.bytes("malloc"), expiry: ExpiryModel(VarnishExpiry(parameters))),
      disk: nil,
      promotion: .none,
      rules: VarnishRules())
  }
}

/// builtin.vcl's passes and the statuses `RFC2616_Ttl` gives a ttl.
struct VarnishRules: LibraryRules {
  static let statuses: Set<Int16> = [200, 203, 204, 300, 301, 302, 304, 307, 404, 410, 414]

  func usesCache(_ attributes: RequestAttributes) -> Bool { !attributes.authorization }

  /// A 5xx is a backend response: uncacheable (ttl −1), so a background fetch answered with one
  /// replaces the stale object with hit-for-miss (cache_fetch.c:749-750).
  var fetchesErrorResponses: Bool { true }

  func storesStatus(_ status: Int16) -> Bool { Self.statuses.contains(status) }

  /// varnishncsa's `%{Varnish:hitmiss}x` says `miss` for a conditional fetch of a kept object.
  var logsRevalidationAsHit: Bool { false }
}

/// `RFC2616_Ttl` and builtin.vcl's hit-for-miss rules, with grace.
struct VarnishExpiry: ExpiryRule {
  static let clockSkew: Int64 = 10 * microsecondsPerSecond
  var defaultTTL: Int64
  var grace: Int64
  var keep: Int64

  init(_ parameters: Parameters) {
    defaultTTL = parameters.duration("default-ttl")
    grace = parameters.duration("grace")
    keep = parameters.duration("keep")
  }

  var name: String { "varnish" }

  /// The ttl in microseconds of a response arriving at `now` (negative: not cacheable).
  func ttl(_ attributes: RequestAttributes, now: Int64) -> Int64 {
    let cc = attributes.cacheControl
    let explicit = cc.sharedMaxAge >= 0 || cc.maxAge >= 0 || attributes.expires != RequestAttributes.absent
    if attributes.status == 302 || attributes.status == 307 {
      guard explicit else { return -1 }
    } else if !VarnishRules.statuses.contains(attributes.status) {
      return -1
    }
    if cc.isInvalid { return 0 }
    if cc.sharedMaxAge >= 0 { return cc.sharedMaxAge * microsecondsPerSecond }
    if cc.maxAge >= 0 { return cc.maxAge * microsecondsPerSecond }
    if attributes.expires != RequestAttributes.absent {
      guard attributes.expires != RequestAttributes.invalidDate else { return 0 }
      let date = attributes.date
      if date != RequestAttributes.absent, attributes.expires < date { return 0 }
      if date == RequestAttributes.absent || abs(date.addingSaturated(-now)) < Self.clockSkew {
        return attributes.expires.addingSaturated(-now)
      }
      return attributes.expires - date
    }
    return defaultTTL
  }

  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    let cc = attributes.cacheControl
    if attributes.setCookie || attributes.varyAll || cc.noCache || cc.noStore || cc.isPrivate { return false }
    return ttl(attributes, now: now) > 0
  }

  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    let arrival = metadata.response.responseTime
    let origin = arrival.addingSaturated(-max(attributes.age, 0) * microsecondsPerSecond)
    metadata.expiresAt = origin.addingSaturated(ttl(attributes, now: arrival))
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    if metadata.expiresAt > now { return .fresh }
    let window = metadata.response.cacheControl.staleWhileRevalidate
    let grace = window >= 0 ? window * microsecondsPerSecond : self.grace
    let graceEnds = metadata.expiresAt.addingSaturated(grace)
    if graceEnds > now { return .serveThenRevalidate }
    // Kept past grace: fetched again, conditionally when a 200 has a validator (OF_IMSCAND).
    let conditional = metadata.response.status == 200 && metadata.hasValidators
    return conditional && graceEnds.addingSaturated(keep) > now ? .mustRevalidate : .expired
  }
}
