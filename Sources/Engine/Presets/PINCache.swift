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
    ]
  ) { parameters in
    EngineConfiguration(
      name: "pincache",
      memory: .preset("lru", parameters.bytes("memory"), unit: .cost),
      disk: .preset("lru", parameters.bytes("disk"), blockSize: PresetDefaults.block),
      memoryHitTouchesDisk: true,
      events: [.memoryWarning: [.clearMemory], .background: [.clearMemory]])
  }
}
