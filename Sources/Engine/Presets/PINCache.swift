import CacheCore

extension EnginePreset {
  /// PINCache 3.0.4 (seed-systems §7).
  static let pincache = EnginePreset(
    name: "pincache",
    summary:
      "LRU memory (cleared on warning/background) + 50 MB LRU disk trimmed on every write; memory hits touch disk",
    origin: "PINCache 3.0.4 (2fb8594): PINCache.m, PINMemoryCache.m, PINDiskCache.m",
    parameters: [
      ParameterSpec("memory", default: "0", .byteCount, help: "memory cost limit (0: none)"),
      ParameterSpec("disk", default: "50MiB", .byteCount, help: "disk byteLimit (allocated bytes)"),
    ],
    modelled: [
      "memory: LRU by access date with the caller's cost, emptied on memory warning and background (PINMemoryCache.m L105–106)",
      "disk: LRU by access date in allocated bytes, trimmed to the byte limit on every write (PINDiskCache.m)",
      "a memory hit also updates the disk copy's access date (PINCache.m objectForKey:)",
      "a disk hit is promoted into memory at cost 0 (PINCache.m L307 setObject:forKey:, PINMemoryCache.m L487 withCost:0)",
      "an app stores what it fetched successfully (status 2xx)",
    ],
    notModelled: [
      "ageLimit/TTL mode (off by default), the LFU eviction option"
    ]
  ) { parameters in
    EngineConfiguration(
      name: "pincache",
      memory: .preset("lru", parameters.bytes("memory"), unit: .cost),
      disk: .preset("lru", parameters.bytes("disk"), blockSize: PresetDefaults.block),
      memoryHitTouchesDisk: true,
      events: [.memoryWarning: [.clearMemory], .background: [.clearMemory]],
      rules: ImageLibraryRules(accepted: 200..<300, promotedCost: 0))
  }
}
