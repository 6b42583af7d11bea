import CacheCore
import Engine
import Policies
import Testing

/// HTTP expiry and revalidation through a custom engine (memory LRU, RFC 9111 expiry).
@Suite struct RevalidationTests {
  static func httpCache() throws -> EngineDriver {
    try EngineDriver(
      EngineConfiguration(
        name: "http", memory: TierConfiguration(parsing: "lru:1MiB", expiry: .http(heuristic: 0.1))))
  }

  @Test func unchangedObjectsRevalidateWith304AndChangedOnesWith200() throws {
    let cache = try Self.httpCache()
    try cache.get(1, at: 0, cacheControl: "max-age=60", version: 1, etag: "v1")
    #expect(try cache.get(1, at: 30, cacheControl: "max-age=60", version: 1, etag: "v1") == .memoryHit)
    // Stale at 61 s; the origin still has v1: 304, headers refreshed, body kept.
    #expect(try cache.get(1, at: 100, cacheControl: "max-age=60", version: 1, etag: "v1") == .revalidated304)
    #expect(cache.stats.originBytes == 100 + 300 + 300, "the 304 transfers headers only")
    #expect(try cache.get(1, at: 150, cacheControl: "max-age=60", version: 1, etag: "v1") == .memoryHit)
    // The origin changed to v2: 200 with the new body.
    #expect(try cache.get(1, at: 300, size: 120, cacheControl: "max-age=60", version: 2, etag: "v2") == .revalidated200)
    #expect(cache.engine.memoryMetadata(1)?.version == 2)
    #expect(cache.engine.memoryMetadata(1)?.size == 120)
  }

  @Test func lastModifiedValidatesWithoutAnETag() throws {
    let cache = try Self.httpCache()
    try cache.get(1, at: 0, cacheControl: "max-age=10", lastModified: 0)
    #expect(try cache.get(1, at: 20, cacheControl: "max-age=10", lastModified: 0) == .revalidated304)
    #expect(try cache.get(1, at: 40, cacheControl: "max-age=10", version: 2, lastModified: 35) == .revalidated200)
  }

  @Test func noCacheAlwaysRevalidatesAndNoStoreIsNeverStored() throws {
    let cache = try Self.httpCache()
    try cache.get(1, at: 0, cacheControl: "no-cache", etag: "a")
    #expect(try cache.get(1, at: 1, cacheControl: "no-cache", etag: "a") == .revalidated304)
    try cache.get(2, at: 0, cacheControl: "no-store")
    #expect(try cache.get(2, at: 1, cacheControl: "no-store") == .fetched)
    #expect(cache.engine.memoryMetadata(2) == nil)
  }

  @Test func staleWhileRevalidateServesThenRevalidates() throws {
    let cache = try Self.httpCache()
    let policy = "max-age=60, stale-while-revalidate=30"
    try cache.get(1, at: 0, cacheControl: policy, version: 1, etag: "v1")
    // 70 s: stale by 10 s, within the 30 s window: served at once, revalidated behind.
    #expect(try cache.get(1, at: 70, cacheControl: policy, version: 2, etag: "v2") == .memoryHit)
    #expect(cache.stats.servedWhileRevalidating == 1)
    #expect(cache.stats.staleServed == 1, "the served copy was v1 while the origin had v2")
    #expect(cache.stats.revalidated200 == 1)
    // Beyond the window the client waits for the revalidation.
    #expect(try cache.get(1, at: 200, cacheControl: policy, version: 2, etag: "v2") == .revalidated304)
  }

  @Test func staleIfErrorServesOnOriginFailureUnlessMustRevalidate() throws {
    let cache = try Self.httpCache()
    try cache.get(1, at: 0, cacheControl: "max-age=60, stale-if-error=600", etag: "a")
    #expect(
      try cache.get(1, at: 100, cacheControl: "max-age=60, stale-if-error=600", etag: "a", status: 503) == .memoryHit)
    #expect(cache.stats.servedOnError == 1)
    #expect(try cache.get(1, at: 1000, cacheControl: "max-age=60, stale-if-error=600", etag: "a", status: 0) == .error)
    try cache.get(2, at: 0, cacheControl: "max-age=60, must-revalidate, stale-if-error=600", etag: "b")
    #expect(
      try cache.get(2, at: 100, cacheControl: "max-age=60, must-revalidate, stale-if-error=600", etag: "b", status: 503)
        == .error)
  }

  @Test func heuristicFreshnessUsesLastModified() throws {
    let cache = try Self.httpCache()
    // Date − Last-Modified = 1000 s, so fresh for 100 s.
    try cache.get(1, at: 1000, etag: "a", lastModified: 0, date: 1000)
    #expect(try cache.get(1, at: 1099, etag: "a", lastModified: 0) == .memoryHit)
    #expect(try cache.get(1, at: 1101, etag: "a", lastModified: 0) == .revalidated304)
  }
}
