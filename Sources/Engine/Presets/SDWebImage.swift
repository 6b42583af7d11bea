import CacheCore

extension EnginePreset {
  /// SDWebImage 5.21's SDImageCache (seed-systems §2).
  static let sdwebimage = EnginePreset(
    name: "sdwebimage",
    summary:
      "NSCache memory purged on warning/background + MD5-named disk; background/terminate delete files unread for 7 d, then oldest to below half",
    origin: "SDWebImage 5.21.5: SDImageCache.m, SDMemoryCache.m, SDDiskCache.m, SDImageCacheConfig.m",
    parameters: [
      ParameterSpec(
        "max-memory", default: "0", .byteCount, help: "memory cost limit (0: none, NSCache purges only on events)"),
      ParameterSpec("max-disk", default: "0", .byteCount, help: "disk size limit in allocated bytes (0: none)"),
      ParameterSpec(
        "max-age", default: "7d", .durationOrNever,
        help: "files older than this (by the expire-by date) are deleted; never: no age limit (maxDiskAge < 0)"),
      ParameterSpec(
        "expire-by", default: "access", .choice(["access", "modification", "creation", "change"]),
        help: "date aged by (access since 5.20; change: attribute change date)"),
    ],
    modelled: [
      "only 2xx responses are images to cache (SDWebImageDownloaderConfig.m L29 acceptableStatusCodes 200..<300; the header comment says [200,400), the code wins)",
      "memory: an NSCache (SDMemoryCache.m) emptied on memory warning (L65–77) and, as Darwin's NSCache does, on background"
        + " (SDImageCacheConfig.h L59; SDWebImage itself only sweeps the disk then, SDImageCache.m L814–831)",
      "memory hits do not touch the disk; disk hits are promoted to memory with their cost (SDImageCache.m)",
      "disk reads set the access date (SDDiskCache.m dataForKey:, since 5.20)",
      "background and terminate: delete files whose expire-by date ≤ now − max-age (never when maxDiskAge < 0),"
        + " then if over max-disk delete oldest first until strictly below half (SDDiskCache.m removeExpiredData L170–225)",
      "sizes for the disk limit in allocated 4 KiB blocks (NSURLTotalFileAllocatedSizeKey)",
      "expire-by: access, modification, creation or change date (SDImageCacheConfig.h L13–30, SDDiskCache.m L144–156);"
        + " the change date also moves when a read sets the access date",
    ],
    notModelled: [
      "Darwin NSCache's eviction order under a cost limit (closed source; modelled as oldest stored first)",
      "the weak memory cache (off by default since 5.12)",
      "HTTP caching (off unless SDWebImageDownloaderUseNSURLCache); cleanup runs synchronously at the event",
    ]
  ) { parameters in
    let neverExpires = parameters.duration("max-age") < 0
    let cleanup = DiskCleanup(
      maxAge: neverExpires ? nil : parameters.duration("max-age"),
      dateKind: DateKind(rawValue: parameters.string("expire-by")) ?? .access,
      sizeLimit: parameters.bytes("max-disk"), target: 0.5, stopStrictlyBelow: true)
    return EngineConfiguration(
      name: "sdwebimage",
      // Darwin NSCache evicts the oldest inserted first; reads do not protect.
      memory: .preset("fifo", parameters.bytes("max-memory"), unit: .cost),
      disk: .preset("fifo", 0, blockSize: PresetDefaults.block),
      events: [
        .memoryWarning: [.clearMemory],
        .background: [.clearMemory, .diskCleanup(cleanup)],
        .terminate: [.diskCleanup(cleanup)],
      ],
      rules: ImageLibraryRules.twoHundreds)
  }
}
