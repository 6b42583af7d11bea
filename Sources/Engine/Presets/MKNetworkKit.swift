import CacheCore

extension EnginePreset {
  /// MKNetworkKit 2.x's MKCache as it behaves, bugs included (seed-systems §1).
  static let mknetworkkit = EnginePreset(
    name: "mknetworkkit",
    summary: "MKCache: 10-item memory LRU by write, spill to unbounded disk, flush on events; header bugs kept",
    origin:
      "MKNetworkKit 2.x (6e8324c): MKCache.m, MKNetworkHost.m, MKNetworkRequest.m, NSHTTPURLResponse+MKNKAdditions.m",
    parameters: mknetworkkitParameters,
    modelled: mknetworkkitRules + [
      "header bugs: any Cache-Control makes a response fresh forever (maxAge always 0,"
        + " NSHTTPURLResponse+MKNKAdditions.m); validators without Expires: images fresh forever, others revalidate"
        + " on every request (MKNetworkHost.m startRequest:)",
      "a 304 stores its empty body and headers as the response (MKNetworkHost.m L287–311)",
      "disk hits promoted untracked: outside the count, kept until the next flush (MKCache.m objectForKeyedSubscript:)",
    ],
    notModelled: mknetworkkitNotModelled
  ) { parameters in
    mknetworkkitConfiguration("mknetworkkit", parameters, faithful: true)
  }

  /// MKNetworkKit 2.x as its comments and README describe it (seed-systems §1.5).
  static let mknetworkkitIntended = EnginePreset(
    name: "mknetworkkit-intended",
    summary: "MKCache as intended: expiry from max-age/Expires/600 s/7 d, 304 keeps the body, tracked promotion",
    origin: "MKNetworkKit 2.x comments and README",
    parameters: mknetworkkitParameters,
    modelled: mknetworkkitRules + [
      "expiry = store time + max-age | Expires − now | 7 d for images without validators | 600 s; stale objects"
        + " served, then revalidated; a 304 keeps the body (the comments' intent, not the code)",
      "disk hits promoted into memory like a fetched object",
    ],
    notModelled: mknetworkkitNotModelled
  ) { parameters in
    mknetworkkitConfiguration("mknetworkkit-intended", parameters, faithful: false)
  }

  static let mknetworkkitParameters = [
    ParameterSpec("memory-count", default: "10", .integer(1...1_000_000), help: "objects kept in memory"),
    ParameterSpec(
      "always-cache", default: "false", .boolean,
      help: "cache HTTPS and credentialed requests too (MKNetworkRequest alwaysCache; off: they bypass the cache)"),
  ]

  static let mknetworkkitRules = [
    "HTTPS requests and requests with credentials bypass the cache (no lookup, no store) unless always-cache"
      + " (MKNetworkRequest.m cacheable, L256–266)",
    "responses are stored only without error: status below 400, 3xx and 304 included (MKNetworkHost.m L283–311)",
    "memory: a count limit, recency on writes only; the least recently written object spills to an unbounded"
      + " disk (MKCache.m setObject:forKeyedSubscript:)",
    "memory warning, background, terminate and resign-active flush memory to disk (MKCache.m flush)",
  ]

  static let mknetworkkitNotModelled = [
    "asynchronous writes (a read right after a write may miss on the device)",
    "POST/PATCH keys from arc4random (traces hold GETs); alwaysLoad and ignoreCache flags",
    "the NSURLCache under NSURLSession (treated as pass-through)",
  ]

  /// Memory: count-limited, recency only on writes (a FIFO that a re-store moves to the
  /// front); memory victims spill to an unbounded disk; memory warning, background,
  /// terminate and resign-active flush memory to disk. Faithful mode promotes disk hits
  /// untracked (outside the count) and keeps the header bugs.
  static func mknetworkkitConfiguration(_ name: String, _ parameters: Parameters, faithful: Bool) -> EngineConfiguration
  {
    let expiry = faithful ? ExpiryModel.mknetworkkit : .mknetworkkitIntended
    let flush: [EngineAction] = [.flushMemoryToDisk]
    return EngineConfiguration(
      name: name,
      memory: .preset("fifo", parameters.integer("memory-count"), unit: .count, expiry: expiry),
      disk: .preset("fifo", 0, expiry: expiry),
      writePolicy: .writeOnEvict,
      promotion: faithful ? .untracked : .tracked,
      events: [.memoryWarning: flush, .background: flush, .terminate: flush, .resignActive: flush],
      rules: MKNetworkKitRules(alwaysCache: parameters.boolean("always-cache"), faithful: faithful))
  }
}

/// MKNetworkRequest's `cacheable` and MKNetworkHost's storing rules.
struct MKNetworkKitRules: LibraryRules {
  var alwaysCache: Bool
  var faithful: Bool

  func usesCache(_ attributes: RequestAttributes) -> Bool {
    alwaysCache || (attributes.url.scheme != .https && !attributes.url.hasCredentials && !attributes.authorization)
  }

  func storesStatus(_ status: Int16) -> Bool { status < 400 }

  var notModified: NotModifiedRule { faithful ? .storeEmptyBody : .refreshHeaders }
}

extension ExpiryModel {
  /// MKNetworkKit 2.x's decision table with its bugs: any Cache-Control makes a response
  /// fresh forever; validators without Expires: images fresh forever, others stale.
  public static let mknetworkkit = ExpiryModel(MKNetworkKitExpiry(faithful: true))
  /// MKNetworkKit as intended: expiry = store time + max-age | Expires | 600 s | 7 d for
  /// images without validators; stale objects are served, then revalidated.
  public static let mknetworkkitIntended = ExpiryModel(MKNetworkKitExpiry(faithful: false))
}

extension ExpiryRuleEntry {
  /// `mknetworkkit` and `mknetworkkit-intended`.
  public static let mknetworkkit = ExpiryRuleEntry(
    name: "mknetworkkit",
    summary: "MKNetworkKit 2.x's decision table with its bugs (any Cache-Control: fresh forever)"
  ) { _ in MKNetworkKitExpiry(faithful: true) }
  public static let mknetworkkitIntended = ExpiryRuleEntry(
    name: "mknetworkkit-intended",
    summary: "MKNetworkKit as intended: max-age | Expires | 600 s | 7 d for images; stale served, then revalidated"
  ) { _ in MKNetworkKitExpiry(faithful: false) }
}

/// MKNetworkHost `startRequest:`'s freshness decision (seed-systems §1.3), faithful or intended.
struct MKNetworkKitExpiry: ExpiryRule {
  var faithful: Bool

  var name: String { faithful ? "mknetworkkit" : "mknetworkkit-intended" }

  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    guard !faithful else {
      metadata.expiresAt = .max
      return
    }
    let cc = metadata.response.cacheControl
    let duration: Int64
    if cc.noCache {
      duration = 0
    } else if cc.maxAge >= 0 {
      duration = cc.maxAge * microsecondsPerSecond
    } else if metadata.response.expires == RequestAttributes.invalidDate {
      duration = 0
    } else if metadata.response.expires != RequestAttributes.absent {
      duration = max(0, metadata.response.expires - now)
    } else if metadata.contentClass == .image && !metadata.hasValidators {
      duration = 7 * 86_400 * microsecondsPerSecond
    } else {
      duration = 600 * microsecondsPerSecond
    }
    metadata.ttl = duration
    metadata.expiresAt = now + duration
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    guard faithful else { return metadata.expiresAt > now ? .fresh : .serveThenRevalidate }
    let response = metadata.response
    if response.cacheControl.isPresent || !metadata.hasValidators { return .fresh }
    if response.expires != RequestAttributes.absent && response.expires != RequestAttributes.invalidDate {
      return response.expires > now ? .fresh : .serveThenRevalidate
    }
    return metadata.contentClass == .image ? .fresh : .serveThenRevalidate
  }
}
