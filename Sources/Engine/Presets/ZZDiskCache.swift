import CacheCore

extension EnginePreset {
  /// The seed material's small Swift disk cache: disk only, one folder per content class.
  static let zzdiskcache = EnginePreset(
    name: "zzdiskcache",
    summary: "disk only, one folder per content class (object, image, voice), MD5 names, no limit, no eviction",
    origin: "ZZDiskCache (seed material)"
  ) { _ in
    EngineConfiguration(name: "zzdiskcache", memory: nil, disk: .preset("fifo", 0), namespacesByClass: true)
  }
}
