import CacheCore
import Engine
import Testing

/// Each preset reproduces its library's documented rules (../shared/design/seed-systems.md).
@Suite struct PresetScenarioTests {
  static let mebibyte: Int64 = 1 << 20
  static let day = 86_400.0

  @Test func afnetworkingPurgesFromOverOneHundredToSixtyMegabytesByLastAccess() throws {
    let cache = try EngineDriver(preset: "afnetworking")
    for key: UInt64 in 1...10 { try cache.get(key, at: Double(key), cost: 10 * Self.mebibyte) }
    #expect(try cache.get(1, at: 20, cost: 10 * Self.mebibyte) == .memoryHit, "reads refresh the access date")
    try cache.get(11, at: 21, cost: 5 * Self.mebibyte)
    // 105 MiB > 100 MiB: the least recently accessed (2...5) go until at most 60 MiB remain.
    #expect(cache.engine.memoryOccupied == 55 * Self.mebibyte)
    #expect(cache.engine.memoryMetadata(1) != nil && cache.engine.memoryMetadata(6) == nil)
    try cache.event(.memoryWarning, at: 30)
    #expect(cache.engine.memoryObjects == 0, "a memory warning empties the image cache")
  }

  @Test func sdwebimageDeletesOldFilesByAccessDateThenOldestToBelowHalf() throws {
    // A 1 MiB disk limit, allocated bytes (4 KiB blocks); memory unlimited.
    let cache = try EngineDriver(preset: "sdwebimage:max-disk=1MiB")
    for key: UInt64 in 1...10 { try cache.get(key, at: Double(key), size: 200 * 1024) }  // 10 × 200 KiB
    // A week passes; 9 and 10 are read from disk after a memory warning (access dates renewed).
    try cache.event(.memoryWarning, at: 100)
    #expect(try cache.get(9, at: 8 * Self.day) == .diskHit)
    #expect(try cache.get(10, at: 8 * Self.day + 1) == .diskHit)
    #expect(try cache.get(8, at: 8 * Self.day + 2, size: 200 * 1024) == .diskHit)
    // 1...7 were last accessed more than 7 days ago: deleted at background. The 3 left
    // (600 KiB) are under 1 MiB: no size trim.
    try cache.event(.background, at: 8 * Self.day + 10)
    #expect(cache.engine.diskObjects == 3)
    // Fill past 1 MiB: the next cleanup deletes oldest-accessed first until strictly below 512 KiB.
    for key: UInt64 in 20...24 { try cache.get(key, at: 8 * Self.day + Double(key), size: 200 * 1024) }
    try cache.event(.terminate, at: 8 * Self.day + 100)
    #expect(cache.engine.diskObjects == 2, "8 × 200 KiB -> trimmed to 2 × 200 KiB < 512 KiB")
    #expect(cache.engine.diskMetadata(23) != nil && cache.engine.diskMetadata(24) != nil)
    #expect(try cache.get(9, at: 9 * Self.day) == .fetched, "background emptied memory and the trim deleted 9's file")
    #expect(try cache.get(23, at: 9 * Self.day + 1) == .memoryHit, "terminate cleans the disk, not memory")
  }

  @Test func mknetworkkitPromotesDiskHitsUntrackedAndFlushesOnEvents() throws {
    let cache = try EngineDriver(preset: "mknetworkkit:memory-count=2")
    for key: UInt64 in 1...3 { try cache.get(key, at: Double(key)) }
    // Memory holds 2 (recency by write); 1 spilled to disk.
    #expect(cache.engine.memoryObjects == 2 && cache.engine.diskObjects == 1)
    #expect(try cache.get(1, at: 10) == .diskHit)
    // Promoted untracked: 3 objects in a 2-object memory, and writes do not evict it.
    #expect(cache.engine.memoryObjects == 3)
    try cache.get(4, at: 11)
    #expect(try cache.get(1, at: 12) == .memoryHit)
    try cache.event(.background, at: 13)
    #expect(cache.engine.memoryObjects == 0)
    #expect(cache.engine.diskObjects == 4, "the flush writes every memory object to disk")
  }

  @Test func mknetworkkitFaithfulKeepsItsHeaderBugs() throws {
    let cache = try EngineDriver(preset: "mknetworkkit")
    // Any Cache-Control is "fresh forever", even no-cache and max-age=0.
    try cache.get(1, at: 0, cacheControl: "no-cache", etag: "a")
    #expect(try cache.get(1, at: 86_400, cacheControl: "no-cache", version: 2, etag: "b") == .memoryHit)
    // No Cache-Control, validators, no Expires, not an image: stale at once, served then
    // revalidated; the 304 replaces the stored body with an empty one.
    try cache.get(2, at: 0, etag: "x")
    #expect(try cache.get(2, at: 1, etag: "x") == .memoryHit)
    #expect(cache.stats.revalidated304 == 1)
    #expect(cache.engine.memoryMetadata(2)?.size == 0)
    try cache.get(2, at: 2, etag: "x")
    #expect(cache.stats.lostBodyServed >= 1)
  }

  @Test func kingfisherMemoryTTLSlidesOnAccess() throws {
    let cache = try EngineDriver(preset: "kingfisher")
    try cache.get(1, at: 0)
    // Each hit within 300 s restarts the 300 s memory expiration.
    #expect(try cache.get(1, at: 250) == .memoryHit)
    #expect(try cache.get(1, at: 500) == .memoryHit)
    #expect(try cache.get(1, at: 750) == .memoryHit)
    // 300 s without a hit: expired in memory (the 120 s sweep, due at this request, removes
    // it); the disk copy (7 d, sliding on reads) answers.
    #expect(try cache.get(1, at: 1051) == .diskHit)
    #expect(cache.stats.purged == 1)
    #expect(try cache.get(1, at: 1060) == .memoryHit, "promoted back with a fresh memory TTL")
    // Disk: 7 days after the last disk read the file is expired: a miss.
    try cache.event(.memoryWarning, at: 1100)
    #expect(try cache.get(1, at: 1051 + 7 * Self.day + 1) == .fetched)
  }

  @Test func linuxNSCacheEvictsCheapestFirst() throws {
    let cache = try EngineDriver(preset: "nscache-linux:cost-limit=10")
    for (key, cost) in [(1, 5), (2, 1), (3, 3), (4, 6)] as [(UInt64, Int64)] {
      try cache.get(key, at: Double(key), cost: cost)
    }
    #expect(cache.engine.memoryObjects == 1)
    #expect(try cache.get(4, at: 10, cost: 6) == .memoryHit)
    #expect(try cache.get(2, at: 11, cost: 1) == .fetched)
  }

  @Test func nukeAdmitsSmallEntriesTrimsOnBackgroundAndSweepsAtLaunch() throws {
    let cache = try EngineDriver(preset: "nuke:memory=1000,disk=40KiB")
    try cache.get(1, at: 0, size: 4096, cost: 100)
    #expect(cache.engine.memoryObjects == 0, "cost 100 is not below 10 % of 1000")
    for key: UInt64 in 2...9 { try cache.get(key, at: Double(key), size: 4096, cost: 99) }
    #expect(cache.engine.memoryObjects == 8)
    try cache.event(.background, at: 20)
    #expect(cache.engine.memoryOccupied <= 100, "background trims memory to 10 % of its cost limit")
    // Disk: 12 files of 4 KiB = 48 KiB > 40 KiB; the launch sweep trims to 70 % (28 KiB).
    for key: UInt64 in 10...12 { try cache.get(key, at: Double(key) + 20, size: 4096, cost: 99) }
    try cache.event(.launch, at: 100)
    #expect(cache.engine.diskObjects == 7)
    #expect(cache.engine.memoryObjects == 0, "a launch starts with empty memory")
    // Another launch within 30 minutes does not sweep again.
    for key: UInt64 in 30...40 { try cache.get(key, at: Double(key) + 100, size: 4096, cost: 99) }
    try cache.event(.launch, at: 200)
    #expect(cache.engine.diskObjects == 18)
  }

  @Test func pincacheMemoryHitsTouchTheDiskCopy() throws {
    // A 3-file disk LRU: memory hits keep 1 recent on disk, so 2 is evicted instead.
    let cache = try EngineDriver(preset: "pincache:disk=12KiB")
    for key: UInt64 in 1...3 { try cache.get(key, at: Double(key), size: 4096) }
    #expect(try cache.get(1, at: 10, size: 4096) == .memoryHit)
    try cache.get(4, at: 11, size: 4096)
    #expect(cache.engine.diskMetadata(1) != nil)
    #expect(cache.engine.diskMetadata(2) == nil)
  }

  @Test func urlcacheLinuxFollowsCanCacheWithoutRevalidation() throws {
    let cache = try EngineDriver(preset: "urlcache-linux:memory=3100,disk=1MiB")
    // Stored in memory only if cost (body + 1090 archived bytes for a non-URL key) < capacity (strictly).
    try cache.get(1, at: 0, size: 2010)
    #expect(cache.engine.memoryObjects == 0 && cache.engine.diskObjects == 1)
    #expect(try cache.get(1, at: 1, size: 2010) == .diskHit)
    #expect(cache.engine.memoryObjects == 0, "no promotion")
    // max-age counts from min(Date, store time); no-store and no-cache are never stored.
    try cache.get(2, at: 100, size: 10, cacheControl: "max-age=60", date: 50)
    #expect(try cache.get(2, at: 105, size: 10) == .memoryHit)
    #expect(try cache.get(2, at: 111, size: 10) == .fetched, "expired at 50 + 60")
    try cache.get(3, at: 200, size: 10, cacheControl: "no-cache", etag: "v")
    #expect(try cache.get(3, at: 201, size: 10, cacheControl: "no-cache", etag: "v") == .fetched)
    #expect(cache.stats.revalidated304 == 0)
  }

  @Test func zzdiskcacheKeepsEverythingOnDisk() throws {
    let cache = try EngineDriver(preset: "zzdiskcache")
    for key: UInt64 in 1...50 { try cache.get(key, at: Double(key), size: 1 << 20) }
    try cache.event(.memoryWarning, at: 100)
    try cache.event(.launch, at: 200)
    #expect(cache.engine.diskObjects == 50)
    #expect(try cache.get(7, at: 300) == .diskHit)
  }

  /// Shared-cache presets whose defaults cache nothing this workload revisits (a key comes
  /// back every 97 steps, 2,910 s): nginx keeps only explicitly fresh responses (max-age=60)
  /// and Varnish's default ttl is 120 s; here they are given longer validities.
  static let invariantSpecs = ["nginx": "nginx:valid=1h,inactive=1d", "varnish": "varnish:default-ttl=1h"]

  @Test(arguments: EnginePreset.all.map(\.name))
  func everyPresetBuildsAndKeepsItsInvariants(name: String) throws {
    let cache = try EngineDriver(preset: Self.invariantSpecs[name] ?? name)
    for step in 0..<600 {
      let key = UInt64((step * 7919) % 97)
      try cache.get(
        key, at: Double(step) * 30, size: Int64(1000 + (step % 13) * 700), cost: Int64(4000 + step % 5),
        contentClass: step % 3 == 0 ? .image : .data, cacheControl: step % 4 == 0 ? "max-age=60" : nil,
        version: Int64(step / 200), etag: "v\(step / 200)", lastModified: 0, status: step % 50 == 0 ? 503 : 200)
      if step % 97 == 0 { try cache.event(step % 2 == 0 ? .background : .memoryWarning, at: Double(step) * 30 + 1) }
      if step % 150 == 0 { try cache.event(.launch, at: Double(step) * 30 + 2) }
      try cache.engine.checkInvariants()
    }
    #expect(cache.stats.requests == 600)
    #expect(cache.stats.hits > 0)
  }
}
