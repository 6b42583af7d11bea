import CacheCore

extension EnginePreset {
  /// swift-corelibs-foundation's URLCache on Linux with every response stored by the app
  /// (URLSession itself never stores on Linux at the pinned commit) (seed-systems §4.3).
  static let urlcacheLinux = EnginePreset(
    name: "urlcache-linux",
    summary: "Linux URLCache: 4 MiB memory + 20 MiB disk, FIFO by store, no promotion, canCache rules, no revalidation",
    origin: "swift-corelibs-foundation (761b621): URLCache.swift, HTTPURLProtocol.swift",
    parameters: [
      ParameterSpec("memory", default: "4MiB", .byteCount, help: "memoryCapacity (0: disk only)"),
      ParameterSpec("disk", default: "20MiB", .byteCount, help: "diskCapacity (0: memory only)"),
    ],
    modelled: [
      "key: lowercased host + port + path; scheme, query and fragment ignored; hostless URLs not cached"
        + " (URLCache.swift identifier(for:) L353–370)",
      "cost: the archived size when a disk tier exists (the trace's `stored_size`, else body + URL + 1090 B,"
        + " + 200 B past 64 KiB, measured on Swift 6.3.1 within 4 B without headers), else the body"
        + " (CacheEntry.init L250)",
      "memory: stored only if cost < capacity, after trimming the oldest stores to capacity − cost while the old"
        + " entry still counts; a re-store keeps the key's queue place; a refused store keeps the old entry"
        + " (storeCachedResponse L486–534, evictFromMemoryCacheAssumingLockHeld L266–281)",
      "disk: the same trim by file timestamp; a re-store gets a new timestamp (evictFromDiskCache L283–300)",
      "lookups: memory, then disk; no promotion, reads change nothing (cachedResponse(for:) L461–477)",
      "canCache: no Authorization/WWW-Authenticate/Proxy-Authenticate, no Vary, no no-cache/no-store,"
        + " statuses 200 203 204 206 300 301 404 405 410 414 501, max-age counted from min(Date, store time),"
        + " Expires ignored under max-age or s-maxage, else a past or invalid Expires is expired"
        + " (HTTPURLProtocol.swift canCache L119–247)",
      "a lookup that fails canCache removes the entry; no heuristic freshness, no revalidation"
        + " (canRespondFromCache L256–265)",
    ],
    notModelled: [
      "URLSession on Linux never stores responses itself at this commit (cacheStoragePolicy .notAllowed):"
        + " the preset models an app that stores every response",
      "disk files written in the same second are trimmed in directory order; the preset trims them in store order",
      "the archived size of response headers (about 5 B + name + value each) when the trace gives no stored_size",
      "Foundation traps (force unwrap) when a trim reaches a second queue slot of an entry already evicted;"
        + " the preset skips the slot",
      "HEAD requests, Pragma (never honoured on Linux either), the 500 × userInfo cost of memory-only entries",
      "paths whose base64 identifier contains '/' (non-ASCII or %3F) are never written to disk on Linux",
    ]
  ) { parameters in
    let memory = parameters.bytes("memory")
    let disk = parameters.bytes("disk")
    return EngineConfiguration(
      name: "urlcache-linux",
      memory: memory > 0
        ? .preset("urlcache:restore=keep", memory, unit: .cost, expiry: .urlcacheLinux, readsUpdateAccessDate: false)
        : nil,
      disk: disk > 0
        ? .preset("urlcache:restore=move", disk, unit: .cost, expiry: .urlcacheLinux, readsUpdateAccessDate: false)
        : nil,
      promotion: .none,
      rules: URLCacheLinuxRules(archivesEntries: disk > 0))
  }
}

/// Keys, statuses and costs of swift-corelibs-foundation's URLCache (URLCache.swift).
struct URLCacheLinuxRules: LibraryRules {
  /// Whether entries are archived for the disk (then an entry costs its archived size).
  var archivesEntries: Bool

  func usesCache(_ attributes: RequestAttributes) -> Bool {
    attributes.url.scheme == .none || attributes.url.resource != 0
  }

  func cacheKey(_ key: UInt64, _ attributes: RequestAttributes) -> UInt64 {
    attributes.url.resource != 0 ? attributes.url.resource : key
  }

  func storesStatus(_ status: Int16) -> Bool { URLCacheLinuxExpiry.statuses.contains(status) }

  func cost(_ request: Request, _ attributes: RequestAttributes) -> Int64 {
    guard archivesEntries else { return request.size }
    return attributes.storedSize >= 0
      ? attributes.storedSize : Self.archivedSize(body: request.size, urlLength: Int64(attributes.url.length))
  }

  /// NSKeyedArchiver's binary property list of a header-less response: body + URL + 1090
  /// bytes, 200 more once the archive passes 64 KiB (offsets grow to four bytes).
  static func archivedSize(body: Int64, urlLength: Int64) -> Int64 {
    let small = body + urlLength + 1090
    return small >= 65_536 ? small + 200 : small
  }
}

extension ExpiryModel {
  /// swift-corelibs-foundation URLSession's `canCache`, evaluated again at every lookup.
  public static let urlcacheLinux = ExpiryModel(URLCacheLinuxExpiry())
}

extension ExpiryRuleEntry {
  /// `urlcache-linux`.
  public static let urlcacheLinux = ExpiryRuleEntry(
    name: "urlcache-linux",
    summary: "swift-corelibs-foundation's canCache at every lookup: no heuristics, no revalidation"
  ) { _ in URLCacheLinuxExpiry() }
}

/// `canCache` of swift-corelibs-foundation's HTTPURLProtocol, which `canRespondFromCache`
/// re-evaluates at each lookup (removing the entry when it fails): no heuristics, no
/// revalidation; a response with neither max-age nor Expires is fresh forever.
struct URLCacheLinuxExpiry: ExpiryRule {
  static let statuses: Set<Int16> = [200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501]

  var name: String { "urlcache-linux" }
  var removesExpiredAtLookup: Bool { true }

  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    guard !attributes.authorization, !attributes.vary else { return false }
    return Self.canCache(
      attributes.cacheControl, status: attributes.status, date: attributes.date, expires: attributes.expires,
      storedAt: now, now: now)
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    let response = metadata.response
    let usable = Self.canCache(
      response.cacheControl, status: response.status, date: response.date, expires: response.expires,
      storedAt: metadata.modifiedAt, now: now)
    return usable ? .fresh : .expired
  }

  /// The header part of `canCache` at `now` for a response stored at `storedAt`.
  static func canCache(
    _ cc: CacheControl, status: Int16, date: Int64, expires: Int64, storedAt: Int64, now: Int64
  ) -> Bool {
    if cc.noCache || cc.noStore || !statuses.contains(status) { return false }
    if cc.maxAge >= 0 {
      let start = date == RequestAttributes.absent ? storedAt : min(date, storedAt)
      if now >= start + cc.maxAge * microsecondsPerSecond { return false }
    }
    if cc.maxAge < 0, cc.sharedMaxAge < 0, expires != RequestAttributes.absent {
      return expires != RequestAttributes.invalidDate && expires > now
    }
    return true
  }
}
