import CacheCore

extension EnginePreset {
  /// nginx 1.22.1's `proxy_cache` (Debian 12's nginx-light), a reverse proxy's disk cache, with
  /// the defaults of a bare `proxy_cache_path … keys_zone=…` and `proxy_cache zone;`.
  static let nginx = EnginePreset(
    name: "nginx",
    summary:
      "nginx 1.22.1 proxy_cache: disk LRU over max_size in 4 KiB blocks, explicit freshness only, no revalidation",
    origin: "nginx release-1.22.1: src/http/ngx_http_upstream.c, ngx_http_file_cache.c, ngx_http_proxy_module.c",
    parameters: [
      ParameterSpec("max-size", default: "0", .byteCount, help: "proxy_cache_path max_size (0: unlimited)"),
      ParameterSpec(
        "inactive", default: "10m", .positiveDuration, help: "proxy_cache_path inactive: removed when unused this long"),
      ParameterSpec(
        "keys-zone", default: "10MiB", .byteCountAtLeast(NginxRules.smallestKeysZone),
        help: "proxy_cache_path keys_zone size: 8,095 keys in 1MiB, 191 in 32KiB (x86-64, 4 KiB pages)"),
      ParameterSpec(
        "min-uses", default: "1", .integer(1...1_000_000),
        help: "proxy_cache_min_uses: lookups of a key before its response is stored"),
      ParameterSpec(
        "valid", default: "0s", .duration,
        help: "proxy_cache_valid TIME: for 200, 301 and 302 without explicit freshness (0: none)"),
      ParameterSpec(
        "valid-any", default: "0s", .duration, help: "proxy_cache_valid any TIME: for any other status (0: none)"),
      ParameterSpec(
        "revalidate", default: "false", .boolean,
        help: "proxy_cache_revalidate: conditional requests for expired entries"),
      ParameterSpec(
        "use-stale", default: "off", .choice(["off", "error", "updating", "error+updating"]),
        help: "proxy_cache_use_stale: error (and timeout, http_5xx) serves stale on origin failure"),
      ParameterSpec(
        "background-update", default: "false", .boolean,
        help: "proxy_cache_background_update: with use-stale updating, serve stale and refresh in the background"),
      ParameterSpec(
        "ignore-headers", default: "none",
        .choice(NginxExpiry.Ignored.choices), help: "proxy_ignore_headers (joined with +)"),
      ParameterSpec(
        "manager-phase", default: "10s", .duration,
        help: "when the cache manager next runs after the trace's first request (then every 10 s;"
          + " Scripts/http-diff.sh measures it)"),
    ],
    modelled: [
      "stored iff the response has a validity: Cache-Control s-maxage else max-age (0 or malformed: not stored),"
        + " else Expires (unparsable or past: not stored), else proxy_cache_valid for the status; any status"
        + " (ngx_http_upstream.c:3100-3170, 4753-4784, 4839-4873; ngx_http_file_cache.c:2292-2314)",
      "not stored: Set-Cookie (ngx_http_upstream.c:4691-4693), Cache-Control no-cache, no-store or private"
        + " (4745-4750), Vary: * (5048-5075), unless proxy_ignore_headers names the header (465-474)",
      "a 5xx answer to a full fetch is a response like any other: stored when it has a validity, served as HIT",
      "Authorization and cookies in the request are ignored: such responses are cached (no check in upstream.c,"
        + " ngx_http_proxy_module.c or ngx_http_file_cache.c)",
      "key: scheme, host and request URI with the query (proxy_cache_key default, ngx_http_proxy_module.c:5025-5057)",
      "freshness in whole seconds of nginx's clock: fresh while valid_sec >= now, so max-age=N serves through"
        + " second store+N (ngx_http_file_cache.c:639)",
      "an expired entry is fetched again in full (EXPIRED, a miss); with revalidate=true a conditional request"
        + " when an ETag or Last-Modified was stored, whose 304 refreshes the entry (REVALIDATED, a hit)"
        + " (ngx_http_upstream.c:947-955, 2580-2640, 5787-5833)",
      "use-stale updating with background-update, or a response's stale-while-revalidate with background-update:"
        + " a stale entry is served (STALE) and refreshed in the background (ngx_http_upstream.c:903-958)",
      "use-stale error, or the response's stale-if-error: a stale entry is served when the origin fails"
        + " (ngx_http_upstream.c:4380-4395, 2546-2565)",
      "eviction by the cache manager, a process that runs at start-up and then every 10 s (ngx_process_cycle.c:59-60,"
        + " 1128, 1155-1173), here from manager-phase on trace time: entries unused for `inactive` are removed"
        + " (ngx_http_file_cache.c:1799-1906, at most 10 s apart: 1818, 1846), then, while the size is at or above"
        + " max_size in 4 KiB blocks, the least recently looked-up entry (1961-2045, 1705-1791); between runs"
        + " the cache grows past max_size",
      "an entry unused for `inactive` is expired at lookup even before the manager removes it",
      "the keys zone: a node for every key looked up, stored or not, in one least-recently-looked-up order with"
        + " the manager's; a response is stored only when the file exists or the key's uses (a 10-bit count that"
        + " wraps) reach min_uses, else SCARCE, a miss (ngx_http_file_cache.c:822-925, 309-331)",
      "a full keys zone (keys-zone converted to nodes as ngx_slab.c:99-165 lays out the zone): a new key first"
        + " removes the least recently looked-up node and its file, and sets the watermark to 7/8 of the count"
        + " (ngx_http_file_cache.c:870-889, 1705-1791, 2282-2288); manager runs then also trim while the count"
        + " is at the watermark (1993)",
    ],
    notModelled: [
      "the manager's 100-file batches 50 ms apart (the preset trims at once) and an earlier run when an entry's"
        + " inactive time ends within 10 s; its start before the trace (manager-phase, default a full period)",
      "use-stale error with revalidate=false for an entry with an ETag or Last-Modified: the preset refetches"
        + " without serving stale on an origin failure",
      "the header order of 1.22.1 (an earlier Expires: <past> disables a later max-age; fixed in 1.23.0, 8df3ad13c):"
        + " traces carry no header order, the preset applies Cache-Control before Expires",
      "X-Accel-Expires, X-Accel-Buffering and Vary longer than 128 bytes (traces carry none of them)",
      "proxy_cache_lock, UPDATING between concurrent requests, the loader's first minute (a cold cache reading"
        + " files left by an earlier run), keys zones on other page sizes or with names over 41 bytes",
      "the cache file's header (key, status line and response headers) in the size: only the body's blocks count",
      "a non-cacheable refresh leaves the stale file (and its space) in place; the preset drops it",
    ]
  ) { parameters in
    let keys = KeyTableRule(
      capacity: NginxRules.keyCapacity(zoneBytes: parameters.bytes("keys-zone")),
      minimumUses: Int(parameters.integer("min-uses")), usesModulo: NginxRules.usesModulo,
      inactive: parameters.duration("inactive"), watermarkDivisor: 8)
    return EngineConfiguration(
      name: "nginx", memory: nil,
      // The tier has no limit of its own: only the cache manager enforces max_size.
      disk: .preset("lru", 0, expiry: ExpiryModel(NginxExpiry(parameters)), blockSize: PresetDefaults.block),
      promotion: .none,
      timers: [
        EngineTimer(
          interval: NginxRules.managerPeriod, actions: [.trimKeys(sizeLimit: parameters.bytes("max-size"))],
          firstAfter: parameters.duration("manager-phase"))
      ],
      rules: NginxRules(), keyTable: keys)
  }
}

/// nginx's cache key (the URL) and statuses (any, when the response has a validity).
struct NginxRules: LibraryRules {
  func storesStatus(_ status: Int16) -> Bool { true }

  /// A 5xx from the upstream is a response: stored when it has a validity (ngx_http_upstream.c:3100-3170).
  var fetchesErrorResponses: Bool { true }

  /// The cache manager's longest sleep: ngx_http_file_cache_expire returns at most 10 s (ngx_http_file_cache.c:1818, 1846).
  static let managerPeriod = 10 * microsecondsPerSecond

  /// A node's use count is a 10-bit field (`uses:10`, ngx_http_cache.h:50): it wraps to 0.
  static let usesModulo = 1024

  /// The smallest keys zone with room for a node: below three slab pages the cache's own
  /// header and the log context take every page.
  static let smallestKeysZone: Int64 = 12 << 10

  /// Keys (`ngx_http_file_cache_node_t`, 120 bytes in a 128-byte slab chunk) a keys zone of
  /// `zoneBytes` holds on x86-64 with 4 KiB pages: ngx_slab_init (ngx_slab.c:99-165) keeps a
  /// 200-byte pool header and 9 slot heads and stats (56 bytes each), then one 24-byte page
  /// descriptor per 4 KiB page, pages starting at the next page boundary; one page goes to
  /// the 32-byte log context, and the 128-byte cache header (ngx_http_file_cache.c:137-161)
  /// shares the nodes' pages, 32 chunks each.
  static func keyCapacity(zoneBytes: Int64) -> Int {
    let page: Int64 = 4096
    let descriptor: Int64 = 24
    let header: Int64 = 200 + 9 * (24 + 32)
    var pages = max(0, (zoneBytes - header) / (page + descriptor))
    let start = (header + pages * descriptor + page - 1) / page * page
    pages = min(pages, max(0, (zoneBytes - start) / page))
    return max(1, Int(32 * (pages - 1) - 1))
  }
}

/// nginx 1.22.1's validity (`valid_sec`) and its use at lookup, in whole seconds.
struct NginxExpiry: ExpiryRule {
  /// The headers `proxy_ignore_headers` names.
  struct Ignored: OptionSet, Sendable {
    let rawValue: Int
    static let cacheControl = Ignored(rawValue: 1)
    static let expires = Ignored(rawValue: 2)
    static let setCookie = Ignored(rawValue: 4)
    static let names: [(String, Ignored)] = [
      ("cache-control", .cacheControl), ("expires", .expires), ("set-cookie", .setCookie),
    ]

    /// `none` and every `+`-joined combination, in a fixed order.
    static let choices: [String] =
      ["none"]
      + (1..<8).map { mask in
        names.filter { mask & $0.1.rawValue != 0 }.map(\.0).joined(separator: "+")
      }

    init(rawValue: Int) { self.rawValue = rawValue }
    init(_ text: String) {
      self = Ignored(
        rawValue: Self.names.filter { text.split(separator: "+").contains(Substring($0.0)) }.reduce(0) {
          $0 | $1.1.rawValue
        })
    }
  }

  var valid: Int64
  var validAny: Int64
  var inactive: Int64
  var revalidate: Bool
  var staleOnError: Bool
  var backgroundUpdate: Bool
  var staleWhileUpdating: Bool
  var ignored: Ignored

  init(_ parameters: Parameters) {
    valid = parameters.duration("valid")
    validAny = parameters.duration("valid-any")
    inactive = parameters.duration("inactive")
    revalidate = parameters.boolean("revalidate")
    let useStale = parameters.string("use-stale")
    staleOnError = useStale.contains("error")
    staleWhileUpdating = useStale.contains("updating")
    backgroundUpdate = parameters.boolean("background-update")
    ignored = Ignored(parameters.string("ignore-headers"))
  }

  var name: String { "nginx" }

  /// The last second (of nginx's whole-second clock) the response is valid through, or nil
  /// when nginx does not cache it.
  func validThrough(_ attributes: RequestAttributes, now: Int64) -> Int64? {
    let nowSecond = now / microsecondsPerSecond
    if attributes.setCookie, !ignored.contains(.setCookie) { return nil }
    if attributes.varyAll { return nil }
    let cc = attributes.cacheControl
    if cc.isPresent, !ignored.contains(.cacheControl) {
      if cc.noCache || cc.noStore || cc.isPrivate || cc.isInvalid { return nil }
      let seconds = cc.sharedMaxAge >= 0 ? cc.sharedMaxAge : cc.maxAge
      if seconds == 0 { return nil }
      if seconds > 0 { return nowSecond + seconds }
    }
    if attributes.expires != RequestAttributes.absent, !ignored.contains(.expires) {
      if attributes.expires == RequestAttributes.invalidDate || attributes.expires < now - now % microsecondsPerSecond {
        return nil
      }
      return attributes.expires / microsecondsPerSecond
    }
    let configured = [200, 301, 302].contains(attributes.status) ? (valid > 0 ? valid : validAny) : validAny
    return configured > 0 ? nowSecond + configured / microsecondsPerSecond : nil
  }

  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    validThrough(attributes, now: now) != nil
  }

  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    metadata.expiresAt = validThrough(attributes, now: now).map { ($0 + 1) * microsecondsPerSecond } ?? .max
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    if now - metadata.accessedAt >= inactive { return .expired }
    if now < metadata.expiresAt { return .fresh }
    let cc = metadata.response.cacheControl
    if backgroundUpdate {
      if staleWhileUpdating { return .serveThenRevalidate }
      if cc.staleWhileRevalidate > 0,
        now < metadata.expiresAt.addingSaturated(cc.staleWhileRevalidate * microsecondsPerSecond)
      {
        return .serveThenRevalidate
      }
    }
    // A full refetch (EXPIRED) goes through revalidation only where that sends no conditional
    // request nginx would not send, so that a failing origin can be answered with the stale entry.
    let servesOnError = staleOnError || cc.staleIfError > 0
    return (revalidate || (servesOnError && !metadata.hasValidators)) ? .mustRevalidate : .expired
  }

  func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    if staleOnError { return true }
    let window = metadata.response.cacheControl.staleIfError
    return window > 0 && now < metadata.expiresAt.addingSaturated(window * microsecondsPerSecond)
  }
}
