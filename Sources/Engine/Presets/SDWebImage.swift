import CacheCore

extension EnginePreset {
  /// SDWebImage 5.21's SDImageCache (seed-systems §2).
  static let sdwebimage = EnginePreset(
    name: "sdwebimage",
    summary:
      "cost memory cache + MD5-named disk; background/terminate delete files unread for 7 d, then oldest to below half",
    origin: "SDWebImage 5.21.5: SDImageCache.m, SDDiskCache.m, SDImageCacheConfig.m",
    parameters: [
      ParameterSpec(
        "max-memory", default: "0", .byteCount, help: "memory cost limit (0: none, NSCache purges only on warnings)"),
      ParameterSpec("max-disk", default: "0", .byteCount, help: "disk size limit in allocated bytes (0: none)"),
      ParameterSpec(
        "max-age", default: "7d", .duration, help: "files older than this (by the expire-by date) are deleted"),
      ParameterSpec(
        "expire-by", default: "access", .choice(["access", "modification", "creation"]),
        help: "date aged by (access since 5.20)"),
    ]
  ) { parameters in
    let cleanup = DiskCleanup(
      maxAge: parameters.duration("max-age"), dateKind: DateKind(rawValue: parameters.string("expire-by")) ?? .access,
      sizeLimit: parameters.bytes("max-disk"), target: 0.5, stopStrictlyBelow: true)
    return EngineConfiguration(
      name: "sdwebimage",
      // Darwin NSCache evicts the oldest inserted first; reads do not protect.
      memory: .preset("fifo", parameters.bytes("max-memory"), unit: .cost),
      disk: .preset("fifo", 0, blockSize: PresetDefaults.block),
      events: [
        .memoryWarning: [.clearMemory], .background: [.diskCleanup(cleanup)], .terminate: [.diskCleanup(cleanup)],
      ])
  }
}
