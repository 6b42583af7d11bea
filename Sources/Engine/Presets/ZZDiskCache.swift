import CacheCore

extension EnginePreset {
  /// The seed material's small Swift disk cache: disk only, one folder per content class.
  static let zzdiskcache = EnginePreset(
    name: "zzdiskcache",
    summary: "disk only, one folder and instance per content class (object, image, voice), MD5 names, no eviction",
    origin: "ZZDiskCache (seed material)",
    modelled: [
      "one directory and one cache instance per content class: the same key under another class is another entry",
      "files named by MD5; no size limit, no expiry, no eviction",
      "an app stores what it fetched successfully (status 2xx)",
    ],
    notModelled: ["a memory tier (the library has none)"]
  ) { _ in
    EngineConfiguration(
      name: "zzdiskcache", memory: nil, disk: .preset("fifo", 0), namespacesByClass: true, rules: ZZDiskCacheRules())
  }
}

/// One instance per content class: the class is part of the key.
struct ZZDiskCacheRules: LibraryRules {
  func cacheKey(_ key: UInt64, _ attributes: RequestAttributes) -> UInt64 {
    attributes.contentClass == .data ? key : KeyHash.mix(key ^ (UInt64(attributes.contentClass.rawValue) << 56))
  }
}
