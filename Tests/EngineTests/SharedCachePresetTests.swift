import CacheCore
import Engine
import Testing

/// The shared HTTP caches' presets (nginx, Squid, Varnish), rule by rule, on hand-made
/// requests; `Tests/HTTPServerDiffTests` checks them against the real servers.
@Suite struct NginxPresetTests {
  @Test func storesOnlyExplicitlyFreshResponses() throws {
    let cache = try EngineDriver(preset: "nginx")
    try cache.get(1, at: 10, lastModified: 0)
    #expect(try cache.get(1, at: 11, lastModified: 0) == .fetched, "no default validity, no heuristic")
    try cache.get(2, at: 10, cacheControl: "max-age=0")
    #expect(try cache.get(2, at: 10.5, cacheControl: "max-age=0") == .fetched)
    try cache.get(3, at: 10, expires: 20)
    #expect(try cache.get(3, at: 15, expires: 20) == .diskHit, "Expires without Cache-Control")
    try cache.get(4, at: 10, expires: 5)
    #expect(try cache.get(4, at: 11, expires: 5) == .fetched, "a past Expires is not stored")
    try cache.get(5, at: 10, cacheControl: "max-age=60", status: 404)
    #expect(try cache.get(5, at: 11, cacheControl: "max-age=60", status: 404) == .diskHit, "any status")
    try cache.get(6, at: 10, cacheControl: "max-age=60", status: 500)
    #expect(try cache.get(6, at: 11, cacheControl: "max-age=60", status: 500) == .diskHit, "a 5xx is a response")
    try cache.get(7, at: 10, status: 500)
    #expect(try cache.get(7, at: 11, status: 500) == .fetched)
  }

  @Test func refusesCookiesPrivateNoCacheAndVaryStar() throws {
    let cache = try EngineDriver(preset: "nginx")
    let cases: [(UInt64, String, Bool, Bool)] = [
      (1, "max-age=60", true, false), (2, "max-age=60, private", false, false),
      (3, "no-cache, max-age=60", false, false),
      (4, "max-age=60", false, true),
    ]
    for (key, cc, cookie, varyAll) in cases {
      try cache.get(key, at: 10, cacheControl: cc, varyAll: varyAll, setCookie: cookie)
      #expect(try cache.get(key, at: 11, cacheControl: cc, varyAll: varyAll, setCookie: cookie) == .fetched)
    }
    let ignoring = try EngineDriver(preset: "nginx:ignore-headers=set-cookie")
    try ignoring.get(1, at: 10, cacheControl: "max-age=60", setCookie: true)
    #expect(try ignoring.get(1, at: 11, cacheControl: "max-age=60", setCookie: true) == .diskHit)
    try cache.get(9, at: 10, cacheControl: "max-age=60", authorization: true)
    #expect(try cache.get(9, at: 11, cacheControl: "max-age=60", authorization: true) == .diskHit)
  }

  @Test func freshnessCountsWholeSeconds() throws {
    let cache = try EngineDriver(preset: "nginx")
    try cache.get(1, at: 10.9, cacheControl: "max-age=2")
    #expect(try cache.get(1, at: 12.95, cacheControl: "max-age=2") == .diskHit, "second 12 = 10 + 2")
    #expect(try cache.get(1, at: 13.05, cacheControl: "max-age=2") == .fetched, "second 13 is past valid_sec")
  }

  @Test func validRevalidateAndBackgroundUpdate() throws {
    let valid = try EngineDriver(preset: "nginx:valid=5s")
    try valid.get(1, at: 10)
    #expect(try valid.get(1, at: 14) == .diskHit)
    try valid.get(2, at: 10, status: 404)
    #expect(try valid.get(2, at: 11, status: 404) == .fetched, "valid TIME covers 200, 301 and 302")

    let plain = try EngineDriver(preset: "nginx")
    try plain.get(1, at: 10, cacheControl: "max-age=1", etag: "a")
    #expect(try plain.get(1, at: 13, cacheControl: "max-age=1", etag: "a") == .fetched, "EXPIRED: a full fetch")
    let revalidating = try EngineDriver(preset: "nginx:revalidate=true")
    try revalidating.get(1, at: 10, cacheControl: "max-age=1", etag: "a")
    #expect(try revalidating.get(1, at: 13, cacheControl: "max-age=1", etag: "a") == .revalidated304)
    let updating = try EngineDriver(preset: "nginx:use-stale=updating,background-update=true")
    try updating.get(1, at: 10, cacheControl: "max-age=1")
    #expect(try updating.get(1, at: 13, cacheControl: "max-age=1") == .diskHit, "STALE, refreshed behind")
    let inactive = try EngineDriver(preset: "nginx:inactive=5s")
    try inactive.get(1, at: 10, cacheControl: "max-age=60")
    #expect(try inactive.get(1, at: 16, cacheControl: "max-age=60") == .fetched, "unused for inactive")
  }

  /// max_size is the cache manager's: the cache grows past it between runs (every 10 s from
  /// manager-phase), and a run drops the least recently looked-up entries until it is below.
  @Test func theCacheManagerTrimsToMaxSizeOnItsOwnSchedule() throws {
    let cache = try EngineDriver(preset: "nginx:max-size=16KiB,manager-phase=3s")
    // Five 4 KiB entries at 0-1.6 s: 20 KiB, past max_size until the manager's run at 3 s.
    for key: UInt64 in 1...5 { try cache.get(key, at: Double(key - 1) * 0.4, size: 4096, cacheControl: "max-age=600") }
    #expect(try cache.get(1, at: 2.5, size: 4096, cacheControl: "max-age=600") == .diskHit, "not trimmed yet")
    // The run at 3 s (before the request at 3.5 s) drops the oldest looked-up (2, 3) to 12 KiB < 16 KiB.
    #expect(try cache.get(4, at: 3.5, size: 4096, cacheControl: "max-age=600") == .diskHit)
    #expect(try cache.get(1, at: 3.6, size: 4096, cacheControl: "max-age=600") == .diskHit, "looked up at 2.5 s")
    #expect(try cache.get(3, at: 3.7, size: 4096, cacheControl: "max-age=600") == .fetched, "dropped at 3 s")
    #expect(try cache.get(2, at: 3.8, size: 4096, cacheControl: "max-age=600") == .fetched, "dropped at 3 s")
    // 20 KiB again; the next run is at 13 s, not 10 s after the trace's first request.
    #expect(try cache.get(5, at: 12.9, size: 4096, cacheControl: "max-age=600") == .diskHit)
    #expect(try cache.get(4, at: 13.1, size: 4096, cacheControl: "max-age=600") == .fetched, "least recent at 13 s")
    let unlimited = try EngineDriver(preset: "nginx:manager-phase=0s")
    for key: UInt64 in 1...5 { try unlimited.get(key, at: Double(key), size: 1 << 20, cacheControl: "max-age=600") }
    #expect(try unlimited.get(1, at: 30, size: 1 << 20, cacheControl: "max-age=600") == .diskHit, "max_size 0")
  }

  /// min_uses: a key's response is stored on its min_uses-th lookup (SCARCE, a miss, before);
  /// a key unused for `inactive` starts counting again, and a stored key needs no more uses.
  @Test func minUsesStoresOnTheNthLookup() throws {
    let cache = try EngineDriver(preset: "nginx:min-uses=3,inactive=20s")
    #expect(try cache.get(1, at: 10, cacheControl: "max-age=600") == .fetched)
    #expect(try cache.get(1, at: 11, cacheControl: "max-age=600") == .fetched, "two uses: SCARCE, not stored")
    #expect(try cache.get(1, at: 12, cacheControl: "max-age=600") == .fetched, "the third use stores it")
    #expect(try cache.get(1, at: 13, cacheControl: "max-age=600") == .diskHit)
    #expect(try cache.get(2, at: 14, cacheControl: "max-age=600") == .fetched)
    #expect(try cache.get(2, at: 15, cacheControl: "no-store") == .fetched, "an unstorable answer still counts")
    #expect(try cache.get(2, at: 16, cacheControl: "max-age=600") == .fetched)
    #expect(try cache.get(2, at: 17, cacheControl: "max-age=600") == .diskHit)
    #expect(try cache.get(2, at: 40, cacheControl: "max-age=600") == .fetched, "inactive: file and uses gone")
    #expect(try cache.get(2, at: 41, cacheControl: "max-age=600") == .fetched, "two uses of the new node")
    #expect(try cache.get(2, at: 42, cacheControl: "max-age=600") == .fetched, "stored on the third")
    #expect(try cache.get(2, at: 43, cacheControl: "max-age=600") == .diskHit)
  }

  /// A full keys zone (12 KiB: 31 keys) forces the least recently looked-up key out with its
  /// file when a new key comes, and sets the watermark to 7/8 of the count, which the next
  /// manager run trims to.
  @Test func aFullKeysZoneForcesOutTheOldestKey() throws {
    let cache = try EngineDriver(preset: "nginx:keys-zone=12KiB,manager-phase=100s")
    for key: UInt64 in 1...31 { try cache.get(key, at: Double(key) / 100, cacheControl: "max-age=600") }
    #expect(try cache.get(1, at: 1, cacheControl: "max-age=600") == .diskHit, "31 keys fit")
    #expect(try cache.get(32, at: 1.1, cacheControl: "max-age=600") == .fetched)
    #expect(try cache.get(2, at: 1.2, cacheControl: "max-age=600") == .fetched, "key 2 was forced out by key 32")
    #expect(try cache.get(1, at: 1.3, cacheControl: "max-age=600") == .diskHit)
    #expect(cache.engine.diskObjects == 31)
    // The run at 100.01 s trims 31 keys to below the watermark 31 - 31/8 = 28: keys 4-7 go.
    #expect(try cache.get(8, at: 100.5, cacheControl: "max-age=600") == .diskHit)
    #expect(cache.engine.diskObjects == 27)
    #expect(try cache.get(7, at: 100.6, cacheControl: "max-age=600") == .fetched, "trimmed at the watermark")
    let scarce = try EngineDriver(preset: "nginx:keys-zone=12KiB,min-uses=2")
    for key: UInt64 in 1...32 { try scarce.get(key, at: Double(key) / 100, cacheControl: "max-age=600") }
    #expect(try scarce.get(1, at: 1, cacheControl: "max-age=600") == .fetched, "key 1's one use was forced out")
    #expect(try scarce.get(32, at: 1.1, cacheControl: "max-age=600") == .fetched, "the second use stores it")
    #expect(try scarce.get(32, at: 1.2, cacheControl: "max-age=600") == .diskHit)
  }
}

@Suite struct SquidPresetTests {
  @Test func storesStaleResponsesAndRevalidatesThem() throws {
    let cache = try EngineDriver(preset: "squid")
    try cache.get(1, at: 10, etag: "a", date: 10)
    #expect(try cache.get(1, at: 11, etag: "a", date: 11) == .revalidated304, "stored stale, TCP_REFRESH_UNMODIFIED")
    try cache.get(2, at: 10, date: 10)
    #expect(try cache.get(2, at: 11, date: 11) == .fetched, "no validator: TCP_REFRESH_MODIFIED")
    try cache.get(3, at: 10, cacheControl: "no-cache, max-age=60", etag: "a", date: 10)
    #expect(try cache.get(3, at: 11, cacheControl: "no-cache, max-age=60", etag: "a", date: 11) == .revalidated304)
    try cache.get(4, at: 10, cacheControl: "max-age=60", etag: "a", date: 10, varyAll: true)
    #expect(try cache.get(4, at: 11, cacheControl: "max-age=60", etag: "a", date: 11, varyAll: true) == .revalidated304)
  }

  @Test func freshnessFromDateExpiresAndRefreshPattern() throws {
    let cache = try EngineDriver(preset: "squid")
    try cache.get(1, at: 10.2, cacheControl: "max-age=3", date: 10)
    #expect(try cache.get(1, at: 12.9, cacheControl: "max-age=3", date: 12) == .memoryHit)
    #expect(try cache.get(1, at: 13.1, cacheControl: "max-age=3", etag: "a", date: 13) == .fetched, "13 = 10 + 3")
    try cache.get(2, at: 10.5, cacheControl: "max-age=60")
    #expect(try cache.get(2, at: 11, cacheControl: "max-age=60") == .memoryHit, "a trace without Date: the request's")
    #expect(try cache.get(2, at: 70.2, cacheControl: "max-age=60") == .fetched, "second 70 = 10 + 60")
    try cache.get(3, at: 1000, lastModified: 0, date: 1000)
    #expect(try cache.get(3, at: 1150, lastModified: 0, date: 1150) == .memoryHit, "20 % of 1000 s")
    #expect(try cache.get(3, at: 1250, lastModified: 0, date: 1250) == .revalidated304)
    try cache.get(4, at: 1000, lastModified: 0, date: 1000, url: "http://h.test/q?x=1")
    #expect(
      try cache.get(4, at: 1001, lastModified: 0, date: 1001, url: "http://h.test/q?x=1") == .revalidated304,
      "refresh_pattern (/cgi-bin/|\\?) 0 0% 0")
  }

  @Test func statusesAuthorizationPrivateAndSize() throws {
    let cache = try EngineDriver(preset: "squid")
    try cache.get(1, at: 10, cacheControl: "max-age=60", date: 10, status: 404)
    #expect(try cache.get(1, at: 11, cacheControl: "max-age=60", date: 11, status: 404) == .fetched, "negative_ttl 0")
    try cache.get(2, at: 10, cacheControl: "max-age=60", date: 10, status: 302)
    #expect(
      try cache.get(2, at: 11, cacheControl: "max-age=60", date: 11, status: 302) == .memoryHit, "Date + 60 > Date")
    try cache.get(10, at: 10, date: 10, status: 302)
    #expect(try cache.get(10, at: 11, date: 11, status: 302) == .fetched, "no expiry: not stored")
    try cache.get(3, at: 10, expires: 70, date: 10, status: 302)
    #expect(try cache.get(3, at: 11, expires: 70, date: 11, status: 302) == .memoryHit, "302 with Expires > Date")
    try cache.get(4, at: 10, cacheControl: "max-age=60", date: 10, authorization: true)
    #expect(try cache.get(4, at: 11, cacheControl: "max-age=60", date: 11, authorization: true) == .fetched)
    try cache.get(5, at: 10, cacheControl: "public, max-age=60", date: 10, authorization: true)
    #expect(try cache.get(5, at: 11, cacheControl: "public, max-age=60", date: 11, authorization: true) == .memoryHit)
    try cache.get(6, at: 10, cacheControl: "private, max-age=60", date: 10)
    #expect(try cache.get(6, at: 11, cacheControl: "private, max-age=60", date: 11) == .fetched)
    try cache.get(7, at: 10, size: 600 << 10, cacheControl: "max-age=60", date: 10)
    #expect(try cache.get(7, at: 11, size: 600 << 10, cacheControl: "max-age=60", date: 11) == .fetched, "> 512 KiB")
    try cache.get(8, at: 10, size: 512 << 10, cacheControl: "max-age=60", date: 10, setCookie: true)
    #expect(
      try cache.get(8, at: 11, size: 512 << 10, cacheControl: "max-age=60", date: 11, setCookie: true) == .memoryHit)
  }
}

@Suite struct VarnishPresetTests {
  @Test func defaultTTLGraceAndHitForMiss() throws {
    let cache = try EngineDriver(preset: "varnish")
    try cache.get(1, at: 10, latency: 0)
    #expect(try cache.get(1, at: 129.9, latency: 0) == .memoryHit, "default_ttl 120 s")
    #expect(try cache.get(1, at: 135, latency: 0) == .memoryHit, "grace: stale served, fetched behind")
    #expect(cache.stats.servedWhileRevalidating == 1)
    try cache.get(2, at: 10, cacheControl: "max-age=2", latency: 0)
    #expect(try cache.get(2, at: 23, cacheControl: "max-age=2", latency: 0) == .fetched, "past ttl + grace")
    for (key, cc, cookie, varyAll) in [
      (UInt64(3), "max-age=60", true, false), (4, "private, max-age=60", false, false), (5, "max-age=60", false, true),
    ] {
      try cache.get(key, at: 10, cacheControl: cc, varyAll: varyAll, setCookie: cookie)
      #expect(try cache.get(key, at: 11, cacheControl: cc, varyAll: varyAll, setCookie: cookie) == .fetched)
    }
  }

  @Test func statusesAndAuthorization() throws {
    let cache = try EngineDriver(preset: "varnish")
    try cache.get(1, at: 10, status: 404)
    #expect(try cache.get(1, at: 11, status: 404) == .memoryHit, "404 cached for default_ttl")
    try cache.get(2, at: 10, status: 302)
    #expect(try cache.get(2, at: 11, status: 302) == .fetched, "302 needs explicit freshness")
    try cache.get(3, at: 10, cacheControl: "max-age=60", status: 403)
    #expect(try cache.get(3, at: 11, cacheControl: "max-age=60", status: 403) == .fetched)
    #expect(try cache.get(4, at: 10, cacheControl: "max-age=60", authorization: true) == .bypassed)
    try cache.get(5, at: 10, cacheControl: "s-maxage=1, max-age=60", latency: 0)
    #expect(try cache.get(5, at: 12, cacheControl: "s-maxage=1, max-age=60", latency: 0) == .memoryHit, "grace")
    #expect(try cache.get(5, at: 30, cacheControl: "s-maxage=1, max-age=60", latency: 0) == .fetched)
  }

  /// default_keep: past grace a 200 with a validator is fetched conditionally; its 304 is a
  /// miss in varnishncsa's log, so a logged miss agrees with it.
  @Test func keepMakesConditionalFetchesThatLogAsMisses() throws {
    let cache = try EngineDriver(preset: "varnish:keep=60s")
    try cache.get(1, at: 10, cacheControl: "max-age=2", etag: "a", latency: 0)
    #expect(
      try cache.get(1, at: 30, cacheControl: "max-age=2", etag: "a", latency: 0, observed: .upstreamMiss)
        == .revalidated304, "past ttl + grace, within keep")
    #expect(cache.stats.observedAgreements == 1, "a conditional fetch is a miss in the log")
    try cache.get(2, at: 10, cacheControl: "max-age=2", latency: 0)
    #expect(try cache.get(2, at: 30, cacheControl: "max-age=2", latency: 0) == .fetched, "no validator")
    try cache.get(3, at: 10, cacheControl: "max-age=2", etag: "a", status: 404, latency: 0)
    #expect(try cache.get(3, at: 30, cacheControl: "max-age=2", etag: "a", status: 404) == .fetched, "200 only")
    #expect(try cache.get(1, at: 200, cacheControl: "max-age=2", etag: "a", latency: 0) == .fetched, "past keep")
    let none = try EngineDriver(preset: "varnish")
    try none.get(1, at: 10, cacheControl: "max-age=2", etag: "a", latency: 0)
    #expect(try none.get(1, at: 30, cacheControl: "max-age=2", etag: "a", latency: 0) == .fetched, "keep 0")
  }

  @Test func anErrorToABackgroundFetchEndsGrace() throws {
    let cache = try EngineDriver(preset: "varnish")
    try cache.get(1, at: 10, cacheControl: "max-age=2", latency: 0)
    #expect(try cache.get(1, at: 13, status: 500, latency: 0) == .memoryHit, "grace: served, fetched behind")
    #expect(try cache.get(1, at: 14, status: 500, latency: 0) == .fetched, "the 500 made it hit-for-miss")
    #expect(cache.stats.originErrors == 0)
    try cache.get(2, at: 10, cacheControl: "max-age=2", lastModified: 0, latency: 0)
    #expect(try cache.get(2, at: 13, cacheControl: "max-age=3", status: 500, latency: 0) == .memoryHit)
    #expect(
      try cache.get(2, at: 14, cacheControl: "max-age=3", status: 500, latency: 0) == .fetched,
      "a 500 is no 304, even without validators of its own")
  }
}
