import CacheCore
import Engine
import Testing

/// One scenario per library rule the presets model (issue 9), each named after the rule and
/// citing the library source it comes from.
@Suite struct PresetRuleTests {
  static let day = 86_400.0

  /// Whether a response with `status` is stored: fetched once, asked again.
  static func stores(_ preset: String, status: Int16) throws -> Bool {
    let cache = try EngineDriver(preset: preset)
    try cache.get(1, at: 0, status: status)
    return try cache.get(1, at: 1) == .memoryHit
  }

  // SDWebImageDownloaderConfig.m: acceptableStatusCodes 200..<300; AFURLResponseSerialization.m
  // 200–299; Kingfisher ImageDownloaderDelegate.swift 200..<400; Nuke DataLoader.swift
  // 200..<300; MKNetworkHost.m: an error (not stored) only from 400 on.
  @Test(arguments: [
    ("sdwebimage", 200 as Int16, true), ("sdwebimage", 404, false), ("sdwebimage", 302, false),
    ("afnetworking", 204, true), ("afnetworking", 404, false), ("afnetworking", 301, false),
    ("kingfisher", 200, true), ("kingfisher", 302, true), ("kingfisher", 404, false),
    ("nuke", 200, true), ("nuke", 404, false), ("nuke", 304, false),
    ("mknetworkkit:always-cache=true", 200, true), ("mknetworkkit:always-cache=true", 304, true),
    ("mknetworkkit:always-cache=true", 404, false), ("pincache", 404, false),
  ])
  func imageLibrariesStoreOnlyTheStatusesTheirDownloaderAccepts(preset: String, status: Int16, stored: Bool) throws {
    #expect(try Self.stores(preset, status: status) == stored, "\(preset) status \(status)")
  }

  // MKNetworkRequest.m `cacheable`: HTTPS or credentials need alwaysCache.
  @Test(arguments: ["mknetworkkit", "mknetworkkit-intended"])
  func mknetworkkitBypassesHTTPSAndCredentialsUnlessAlwaysCache(preset: String) throws {
    let cache = try EngineDriver(preset: preset)
    for time in [0.0, 1.0] {
      #expect(try cache.get(1, at: time, url: "https://cdn.example.com/a.jpg") == .bypassed)
      #expect(try cache.get(2, at: time, url: "http://user:pw@cdn.example.com/a.jpg") == .bypassed)
      #expect(try cache.get(3, at: time, url: "http://cdn.example.com/a.jpg", authorization: true) == .bypassed)
    }
    #expect(cache.stats.bypassed == 6 && cache.stats.originFetches == 6 && cache.engine.memoryObjects == 0)
    try cache.get(4, at: 2, url: "http://cdn.example.com/b.jpg")
    #expect(try cache.get(4, at: 3, url: "http://cdn.example.com/b.jpg") == .memoryHit, "plain HTTP is cached")
    let always = try EngineDriver(preset: preset + ":always-cache=true")
    try always.get(1, at: 0, url: "https://cdn.example.com/a.jpg")
    #expect(try always.get(1, at: 1, url: "https://cdn.example.com/a.jpg") == .memoryHit)
  }

  // SDMemoryCache.m (an NSCache, cleared on memory warning); Darwin's NSCache empties on
  // background (SDImageCacheConfig.h, shouldUseWeakMemoryCache's note).
  @Test func sdwebimageMemoryIsPurgedOnBackgroundAndMemoryWarning() throws {
    let cache = try EngineDriver(preset: "sdwebimage")
    try cache.get(1, at: 0)
    try cache.event(.background, at: 1)
    #expect(cache.engine.memoryObjects == 0)
    #expect(try cache.get(1, at: 2) == .diskHit)
    #expect(try cache.get(1, at: 3) == .memoryHit)
    try cache.event(.memoryWarning, at: 4)
    #expect(try cache.get(1, at: 5) == .diskHit)
  }

  // SDDiskCache.m removeExpiredData: maxDiskAge < 0 → no expiration date.
  @Test func sdwebimageNegativeMaxDiskAgeNeverExpires() throws {
    let cache = try EngineDriver(preset: "sdwebimage:max-age=never")
    try cache.get(1, at: 0)
    try cache.event(.background, at: 365 * Self.day)
    #expect(cache.engine.diskObjects == 1)
    let weekly = try EngineDriver(preset: "sdwebimage")
    try weekly.get(1, at: 0)
    try weekly.event(.background, at: 365 * Self.day)
    #expect(weekly.engine.diskObjects == 0)
  }

  // SDImageCacheConfig.h SDImageCacheConfigExpireTypeChangeDate → NSURLAttributeModificationDateKey,
  // which the access-date update on every disk read also moves.
  @Test func sdwebimageChangeDateIsMovedByDiskReads() throws {
    func survivors(_ expireBy: String) throws -> Int {
      let cache = try EngineDriver(preset: "sdwebimage:expire-by=\(expireBy)")
      try cache.get(1, at: 0)
      try cache.get(2, at: 1)
      try cache.event(.memoryWarning, at: 2)
      #expect(try cache.get(1, at: 6 * Self.day) == .diskHit)
      try cache.event(.terminate, at: 8 * Self.day)
      return cache.engine.diskObjects
    }
    #expect(try survivors("change") == 1, "the read at day 6 moved the change date")
    #expect(try survivors("access") == 1)
    #expect(try survivors("modification") == 0)
    #expect(try survivors("creation") == 0)
  }

  // AFImageDownloader.m defaultURLCache: NSURLCache(memoryCapacity: 20 MiB, diskCapacity: 150 MiB).
  @Test func afnetworkingURLCacheMemoryAnswersWithoutADiskRead() throws {
    func diskReads(_ preset: String) throws -> Int64 {
      let cache = try EngineDriver(preset: preset)
      try cache.get(1, at: 0, size: 100_000, cacheControl: "max-age=3600")
      try cache.event(.memoryWarning, at: 1)  // empties the image cache only
      #expect(try cache.get(1, at: 2, size: 100_000, cacheControl: "max-age=3600") == .diskHit)
      return cache.stats.disk.reads
    }
    #expect(try diskReads("afnetworking") == 0, "served from NSURLCache's 20 MiB memory")
    #expect(try diskReads("afnetworking:url-cache-memory=64KiB") == 1, "too big for its memory: read from disk")
  }

  // NSCache.swift setObject(_:forKey:cost:): same cost keeps the place (lines 144–153).
  @Test func nscacheRestoreAtSameCostKeepsItsPlace() throws {
    let cache = try EngineDriver(preset: "nscache-linux:cost-limit=3")
    try cache.put(1, at: 0, cost: 1)
    try cache.put(2, at: 1, cost: 1)  // list: 2, 1 (newest first among equal costs)
    try cache.put(1, at: 2, cost: 1)  // unchanged cost: 1 stays behind 2
    try cache.put(3, at: 3, cost: 2)  // total 4 > 3: the head (2) goes
    #expect(cache.engine.memoryMetadata(1) != nil && cache.engine.memoryMetadata(2) == nil)
  }

  // NSCache.swift: a changed cost re-inserts ahead of equal costs; eviction after insertion
  // from the cheapest, so the new object itself can go at once.
  @Test func nscacheEvictsAfterInsertingSoTheNewObjectCanGoAtOnce() throws {
    let cache = try EngineDriver(preset: "nscache-linux:cost-limit=3")
    try cache.put(1, at: 0, cost: 1)
    try cache.put(2, at: 1, cost: 1)
    try cache.put(1, at: 2, cost: 2)  // moves: 2, 1(2)
    try cache.put(3, at: 3, cost: 1)  // head now: 3, 2, 1 → total 4 > 3 pops 3 itself
    #expect(cache.engine.memoryMetadata(3) == nil)
    #expect(cache.engine.memoryObjects == 2 && cache.stats.memoryEvictions == 1)
    // An object above the limit is inserted, then it and everything cheaper go.
    try cache.put(4, at: 4, cost: 4)
    #expect(cache.engine.memoryObjects == 0)
  }

  // NSCache.swift: the count purge runs after the cost purge.
  @Test func nscacheEnforcesTheCountLimitAfterTheCostPurge() throws {
    let cache = try EngineDriver(preset: "nscache-linux:cost-limit=10,count-limit=2")
    try cache.put(1, at: 0, cost: 5)
    try cache.put(2, at: 1, cost: 4)
    try cache.put(3, at: 2, cost: 3)  // cost 12 > 10: 3 goes (cheapest); count 2 then fine
    #expect(cache.engine.memoryMetadata(3) == nil && cache.engine.memoryObjects == 2)
    try cache.put(4, at: 3, cost: 0)  // cost fine; count 3 > 2: the cheapest (4) goes
    #expect(cache.engine.memoryMetadata(4) == nil && cache.engine.memoryObjects == 2)
  }

  // HTTPURLProtocol.swift canCache: s-maxage sets hasMaxAge, so Expires is ignored.
  @Test func urlcacheSharedMaxAgeMakesExpiresIgnored() throws {
    let cache = try EngineDriver(preset: "urlcache-linux")
    try cache.get(1, at: 100, cacheControl: "s-maxage=10", expires: 50)
    #expect(try cache.get(1, at: 200) == .memoryHit, "no expiry at all: s-maxage itself is not used either")
    try cache.get(2, at: 100, expires: 50)
    #expect(try cache.get(2, at: 101) == .fetched, "a past Expires alone is not cacheable")
  }

  // URLCache.swift storeCachedResponse: the key is appended again and the entry replaced in
  // place, so its earliest queue slot still evicts it.
  @Test func urlcacheRestoreKeepsItsOldFIFOPlace() throws {
    let cache = try EngineDriver(preset: "urlcache-linux:memory=1000,disk=0")
    for key: UInt64 in 1...3 { try cache.put(key, at: Double(key), size: 250) }
    try cache.put(1, at: 4, size: 250)  // 750 ≤ 1000 − 250: no trim; queue 1 2 3 1
    try cache.put(4, at: 5, size: 300)  // needs total ≤ 700: the first slot (1) goes, not 2
    #expect(cache.engine.memoryMetadata(1) == nil && cache.engine.memoryMetadata(2) != nil)
  }

  // HTTPURLProtocol.swift canRespondFromCache: an entry failing canCache is removed at lookup.
  @Test func urlcacheRemovesAnExpiredEntryAtLookup() throws {
    let cache = try EngineDriver(preset: "urlcache-linux")
    try cache.get(1, at: 0, cacheControl: "max-age=60")
    #expect(try cache.get(1, at: 61, status: 503) == .error)
    #expect(cache.engine.memoryObjects == 0 && cache.engine.diskObjects == 0)
  }

  // HTTPURLProtocol.swift canCache: no Vary, no Authorization / WWW-Authenticate / Proxy-Authenticate.
  @Test func urlcacheDoesNotStoreVaryOrAuthenticatedResponses() throws {
    let cache = try EngineDriver(preset: "urlcache-linux")
    try cache.get(1, at: 0, vary: true)
    try cache.get(2, at: 0, authorization: true)
    #expect(try cache.get(1, at: 1) == .fetched)
    #expect(try cache.get(2, at: 1) == .fetched)
    #expect(cache.engine.memoryObjects == 2, "the second, plain responses are stored")
  }

  // URLCache.swift identifier(for:): lowercased host, port, path; scheme and query ignored.
  @Test func urlcacheKeysByHostPortAndPath() throws {
    let cache = try EngineDriver(preset: "urlcache-linux")
    try cache.get(KeyHash.hash("a"), at: 0, url: "http://Img.Example.com/p/1.jpg?v=1")
    #expect(try cache.get(KeyHash.hash("b"), at: 1, url: "https://img.example.com/p/1.jpg?v=2#x") == .memoryHit)
    #expect(try cache.get(KeyHash.hash("c"), at: 2, url: "https://img.example.com:443/p/1.jpg") == .fetched)
    #expect(try cache.get(KeyHash.hash("d"), at: 3, url: "https://img.example.com/p/1.JPG") == .fetched)
  }

  // URLCache.swift CacheEntry.cost: the serialized size when written to disk, else the body.
  @Test func urlcacheChargesTheSerializedSize() throws {
    let withDisk = try EngineDriver(preset: "urlcache-linux")
    try withDisk.get(1, at: 0, size: 1000, url: "http://h/b")
    #expect(withDisk.engine.memoryOccupied == 2100 && withDisk.engine.diskOccupied == 2100, "1000 + 10 + 1090")
    try withDisk.get(2, at: 1, size: 1000, cost: 9999, storedSize: 2345)
    #expect(withDisk.engine.memoryOccupied == 2100 + 2345, "stored_size is the archived size; cost is not used")
    let memoryOnly = try EngineDriver(preset: "urlcache-linux:disk=0")
    try memoryOnly.get(1, at: 0, size: 1000)
    #expect(memoryOnly.engine.memoryOccupied == 1000)
  }

  // PINCache.m objectForKey: a disk hit goes back to memory by setObject:forKey: (cost 0).
  @Test func pincachePromotesDiskHitsAtCostZero() throws {
    let cache = try EngineDriver(preset: "pincache:memory=1000")
    try cache.get(1, at: 0, size: 4096, cost: 900)
    try cache.event(.memoryWarning, at: 1)
    #expect(try cache.get(1, at: 2, size: 4096, cost: 900) == .diskHit)
    #expect(cache.engine.memoryMetadata(1)?.cost == 0 && cache.engine.memoryOccupied == 0)
    try cache.get(2, at: 3, size: 4096, cost: 1000)
    #expect(cache.engine.memoryObjects == 2, "a full-limit object fits beside it: 1 costs nothing")
  }

  // ZZDiskCache: one directory and instance per content class.
  @Test func zzdiskcacheSameKeyUnderAnotherClassIsAnotherEntry() throws {
    let cache = try EngineDriver(preset: "zzdiskcache")
    try cache.get(1, at: 0, contentClass: .image)
    #expect(try cache.get(1, at: 1, contentClass: .voice) == .fetched)
    #expect(try cache.get(1, at: 2, contentClass: .image) == .diskHit)
    #expect(cache.engine.diskObjects == 2)
  }
}
