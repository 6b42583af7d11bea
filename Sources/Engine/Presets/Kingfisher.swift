import CacheCore

extension EnginePreset {
  /// Kingfisher 8.11's ImageCache (seed-systems §5).
  static let kingfisher = EnginePreset(
    name: "kingfisher",
    summary: "memory TTL 300 s sliding (120 s sweep), disk TTL 7 d sliding on reads; cleanup on background/terminate",
    origin: "Kingfisher 8.11.0: MemoryStorage.swift, DiskStorage.swift, ImageCache.swift",
    parameters: [
      ParameterSpec(
        "memory", default: "1GiB", .byteCount,
        help: "memory cost limit (physical memory / 4 of a 4 GiB device; 0: none, as NSCache's totalCostLimit)"),
      ParameterSpec(
        "memory-ttl", default: "300s", .positiveDuration,
        help: "memory expiration (sliding; 0 refused: StorageExpiration.seconds(0) expires at once)"),
      ParameterSpec("disk", default: "0", .byteCount, help: "disk size limit (0: none)"),
      ParameterSpec(
        "disk-ttl", default: "7d", .positiveDuration,
        help: "disk expiration (sliding on disk reads; 0 refused: it expires at once)"),
    ],
    modelled: [
      "responses with status 200..<400 are stored (ImageDownloaderDelegate.swift L121–122, SessionDelegate.swift L140)",
      "memory: cost limit, expiry 300 s sliding on every hit, a 120 s timer removes expired objects"
        + " (MemoryStorage.swift)",
      "disk: expiry 7 d sliding on disk reads (DiskStorage.swift)",
      "memory warning empties memory; background empties the NSCache and cleans the disk (expired first, then if"
        + " at or over the limit oldest by access down to half); terminate and resign-active clean the disk"
        + " (ImageCache.swift)",
    ],
    notModelled: [
      "Darwin NSCache eviction order under the cost limit (closed source; modelled as oldest stored first)",
      "keepWhenEnteringBackground (off by default) and per-request cache options",
    ]
  ) { parameters in
    let cleanup = DiskCleanup(
      dateKind: .access, removeExpired: true, sizeLimit: parameters.bytes("disk"), trimAtLimit: true, target: 0.5)
    return EngineConfiguration(
      name: "kingfisher",
      memory: .preset(
        "fifo", parameters.bytes("memory"), unit: .cost,
        expiry: .ttl(microseconds: parameters.duration("memory-ttl"), sliding: true)),
      disk: .preset("fifo", 0, expiry: .ttl(microseconds: parameters.duration("disk-ttl"), sliding: true)),
      events: [
        .memoryWarning: [.clearMemory],
        // NSCache empties non-discardable items on background (keepWhenEnteringBackground = false).
        .background: [.diskCleanup(cleanup), .clearMemory],
        .terminate: [.diskCleanup(cleanup)],
        .resignActive: [.diskCleanup(cleanup)],
      ],
      timers: [EngineTimer(interval: 120 * microsecondsPerSecond, actions: [.removeExpiredMemory])],
      rules: ImageLibraryRules(accepted: 200..<400))
  }
}
