import CacheCore

extension EnginePreset {
  /// Squid 5.7 as Debian 12 packages it: a memory-only cache (no `cache_dir`) with Debian's
  /// `refresh_pattern` lines, stale entries revalidated before use.
  static let squid = EnginePreset(
    name: "squid",
    summary:
      "Squid 5.7 (Debian): 256 MB memory cache in 4 KiB pages, refresh_pattern heuristics, always revalidates stale",
    origin: "Squid SQUID_5_7: src/http.cc, refresh.cc, client_side_reply.cc, store/Controller.cc; Debian squid.conf",
    parameters: [
      ParameterSpec(
        "cache-mem", default: "256MiB", .byteCount, help: "cache_mem (the memory cache; Squid's MB is MiB)"),
      ParameterSpec(
        "maximum-object-size-in-memory", default: "512KiB", .positiveByteCount, help: "maximum_object_size_in_memory"),
      ParameterSpec("cache-dir", default: "0", .byteCount, help: "cache_dir ufs size (0: none, Debian's default)"),
      ParameterSpec("maximum-object-size", default: "4MiB", .positiveByteCount, help: "maximum_object_size (disk)"),
      ParameterSpec(
        "memory-replacement-policy", default: "lru", .choice(SquidPolicy.names), help: "memory_replacement_policy"),
      ParameterSpec(
        "cache-replacement-policy", default: "lru", .choice(SquidPolicy.names), help: "cache_replacement_policy (disk)"),
      ParameterSpec("refresh-min", default: "0s", .duration, help: "refresh_pattern . MIN (minutes in squid.conf)"),
      ParameterSpec("refresh-percent", default: "20", .real(0...100), help: "refresh_pattern . PERCENT"),
      ParameterSpec("refresh-max", default: "3d", .duration, help: "refresh_pattern . MAX (4320 minutes)"),
    ],
    modelled: [
      "stored statuses: 200 203 300 301 308 410; 302 and 307 only when their expiry (Date + s-maxage or"
        + " max-age, else Expires) is later than Date; others not (negative_ttl 0) (http.cc"
        + " HttpStateData::reusableReply 467-559, HttpReply.cc hdrExpirationTime 281-315)",
      "not stored: Cache-Control no-store or private (http.cc:374-392); with Authorization only if public,"
        + " must-revalidate, no-cache or s-maxage (395-438); above maximum_object_size_in_memory when memory-only"
        + " (store/Controller.cc:198-212, 584-598); Set-Cookie and Vary responses are stored",
      "stale and heuristically stale responses are stored too (refresh.cc refreshIsCachable 528-557) and"
        + " revalidated at their next use",
      "no-cache and Vary: * are revalidated on every use (http.cc:1008-1012, 1057-1077)",
      "freshness in whole seconds: s-maxage or max-age from Date, else Expires − Date from the"
        + " served date, fresh while expires > now; else refresh_pattern: older than MAX stale, else with"
        + " Last-Modified fresh while age < PERCENT × (Date − Last-Modified), else fresh while age < MIN"
        + " (refresh.cc refreshStaleness 146-206; HttpReply.cc:281-315; store.cc timestampsSet 1443-1503)",
      "Debian's `refresh_pattern -i (/cgi-bin/|\\?) 0 0% 0`: URLs with a query are stale without explicit freshness",
      "a stale entry is revalidated with If-Modified-Since (Last-Modified, else Date: the engine's origin answers"
        + " it as unvalidated) and If-None-Match: 304 is TCP_REFRESH_UNMODIFIED (a hit), 200 replaces the entry"
        + " (client_side_reply.cc processExpired 271-373, handleIMSReply 424-514)",
      "a stale entry is served when the origin fails (TCP_REFRESH_FAIL_OLD) unless must-revalidate,"
        + " proxy-revalidate, s-maxage, no-cache or an expired stale-if-error forbid it (client_side_reply.cc:424-514)",
      "memory counted in 4 KiB pages; eviction by memory_replacement_policy: lru, heap LRU, heap GDSF or heap LFUDA"
        + " (repl/lru/store_repl_lru.cc, repl/heap/store_heap_replacement.cc)",
      "with cache-dir: a ufs disk tier written through, by cache_replacement_policy, objects up to"
        + " maximum_object_size; disk hits return to memory",
      "key: the URL (method GET; store_key_md5.cc:97-138)",
    ],
    notModelled: [
      "the purge walk runs at most once a second and frees only the chunk being written, and an object finished"
        + " while the cache is over budget is dropped (store/Controller.cc:542-580, 679-721): under capacity"
        + " pressure compare hit ratios",
      "response headers in the page count (only the body's pages count), mem_node's size beyond 4 KiB",
      "hits on objects still being received (TCP_HIT while in transit), collapsed forwarding",
      "invalidation of the stored entry by a non-storable 200/404 answer (httpMaybeRemovePublic) beyond replacing it",
      "responses older (by Date) than the stored copy; zero-length bodies (not stored when stale)",
      "a response without Date makes Squid ignore max-age (HttpReply.cc:281-315); traces that record no Date"
        + " (most logs) are taken to have Date = the request's time, as origins send it",
      "client Cache-Control (no-cache, max-age) and client conditional requests; Vary variants (one entry per URL)",
      "heap GDSF and LFUDA tie-breaking by last reference time, and their keys (the preset ranks by its gdsf and"
        + " lfuda policies); in a memory-only cache heap GDSF's key divides by swap_file_sz, which is 0 until an"
        + " object is swapped out to a cache_dir (store_swapout.cc:310), so Squid ranks by size 1"
        + " (repl/heap/store_heap_replacement.cc:98-100) where the preset divides by the object's size",
    ]
  ) { parameters in
    let memory = parameters.bytes("cache-mem")
    let inMemory = parameters.bytes("maximum-object-size-in-memory")
    let disk = parameters.bytes("cache-dir")
    let expiry = ExpiryModel(SquidExpiry(parameters))
    return EngineConfiguration(
      name: "squid",
      memory: memory > 0
        ? .preset(
          SquidPolicy.policy(parameters.string("memory-replacement-policy")), memory, expiry: expiry,
          admissionLimit: SquidPolicy.limit(inMemory, of: memory), blockSize: PresetDefaults.block)
        : nil,
      disk: disk > 0
        ? .preset(
          SquidPolicy.policy(parameters.string("cache-replacement-policy")), disk, expiry: expiry,
          admissionLimit: SquidPolicy.limit(parameters.bytes("maximum-object-size"), of: disk),
          blockSize: PresetDefaults.block)
        : nil,
      promotion: .tracked,
      rules: SquidRules())
  }
}

/// Squid's replacement policies and size limits in CacheLab's terms.
enum SquidPolicy {
  static let names = ["lru", "heap-lru", "heap-gdsf", "heap-lfuda"]

  /// The registered policy a Squid policy name stands for.
  static func policy(_ name: String) -> String {
    switch name {
    case "heap-gdsf": "gdsf"
    case "heap-lfuda": "lfuda"
    default: "lru"
    }
  }

  /// The admission limit (objects smaller than this fraction of `capacity`) that admits up to `bytes`.
  static func limit(_ bytes: Int64, of capacity: Int64) -> Double {
    (Double(bytes) + 0.5) / Double(capacity)
  }
}

/// Squid's storable statuses.
struct SquidRules: LibraryRules {
  static let statuses: Set<Int16> = [200, 203, 300, 301, 302, 307, 308, 410]

  func storesStatus(_ status: Int16) -> Bool { Self.statuses.contains(status) }
}

/// Squid 5.7's `reusableReply` and `refreshStaleness` on its whole-second clock.
struct SquidExpiry: ExpiryRule {
  var minimum: Int64
  var percent: Double
  var maximum: Int64

  init(_ parameters: Parameters) {
    minimum = parameters.duration("refresh-min") / microsecondsPerSecond
    percent = parameters.real("refresh-percent") / 100
    maximum = parameters.duration("refresh-max") / microsecondsPerSecond
  }

  var name: String { "squid" }

  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    let cc = attributes.cacheControl
    if cc.noStore || cc.isPrivate { return false }
    if attributes.status == 302 || attributes.status == 307 {
      // reusableReply tests the reply's expiry time, which s-maxage or max-age set first
      // (Date + N: later than Date when N > 0), else Expires.
      let explicitAge = cc.sharedMaxAge >= 0 ? cc.sharedMaxAge : cc.maxAge
      if explicitAge >= 0 {
        guard explicitAge > 0, !cc.isInvalid else { return false }
      } else {
        guard attributes.date != RequestAttributes.absent, attributes.expires != RequestAttributes.absent,
          attributes.expires != RequestAttributes.invalidDate, attributes.expires > attributes.date
        else { return false }
      }
    }
    if attributes.authorization {
      return cc.isPublic || cc.mustRevalidate || cc.noCache || cc.sharedMaxAge >= 0
    }
    return true
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    let response = metadata.response
    if response.cacheControl.noCache || metadata.varyAll { return .mustRevalidate }
    return isFresh(response, storedAt: metadata.modifiedAt, hasQuery: metadata.urlHasQuery, now: now)
      ? .fresh : .mustRevalidate
  }

  /// `refreshStaleness` at `now` for a response received at `storedAt`.
  func isFresh(_ response: HTTPFreshness.Response, storedAt: Int64, hasQuery: Bool, now: Int64) -> Bool {
    let stored = storedAt / microsecondsPerSecond
    let current = now / microsecondsPerSecond
    let date = response.date == RequestAttributes.absent ? nil : response.date / microsecondsPerSecond
    var served = date.map { min(max($0, stored - 86_400), stored) } ?? stored
    if response.age > 0, response.age > stored - served { served = stored - response.age }
    let cc = response.cacheControl
    let explicitAge = cc.sharedMaxAge >= 0 ? cc.sharedMaxAge : cc.maxAge
    if explicitAge >= 0 || cc.isInvalid {
      return !cc.isInvalid && served + explicitAge > current
    }
    if response.expires != RequestAttributes.absent {
      guard response.expires != RequestAttributes.invalidDate else { return false }
      let expires = response.expires / microsecondsPerSecond
      return (date.map { served + (expires - $0) } ?? expires) > current
    }
    let (minimum, percent, maximum) = hasQuery ? (Int64(0), 0.0, Int64(0)) : (self.minimum, self.percent, self.maximum)
    let age = current - served
    if age > maximum { return false }
    if response.lastModified != RequestAttributes.absent {
      let delta = served - response.lastModified / microsecondsPerSecond
      if delta > 0 { return Double(age) < Double(delta) * percent }
    }
    return age < minimum
  }

  func mayServeOnError(_ metadata: EntryMetadata, now: Int64) -> Bool {
    let cc = metadata.response.cacheControl
    if cc.mustRevalidate || cc.proxyRevalidate || cc.sharedMaxAge >= 0 || cc.noCache || cc.isPrivate { return false }
    guard cc.staleIfError >= 0 else { return true }
    let stored = metadata.modifiedAt / microsecondsPerSecond
    return now / microsecondsPerSecond < stored + cc.staleIfError
  }
}
