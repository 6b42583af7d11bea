import CacheCore

extension EnginePreset {
  /// swift-corelibs-foundation's URLCache on Linux with every response stored by the app
  /// (URLSession itself never stores on Linux at the pinned commit) (seed-systems §4.3).
  static let urlcacheLinux = EnginePreset(
    name: "urlcache-linux",
    summary: "Linux URLCache: 4 MiB memory + 20 MiB disk, FIFO, no promotion, canCache rules, no revalidation",
    origin: "swift-corelibs-foundation (761b621): URLCache.swift, HTTPURLProtocol.swift",
    parameters: [
      ParameterSpec("memory", default: "4MiB", .byteCount, help: "memoryCapacity"),
      ParameterSpec("disk", default: "20MiB", .byteCount, help: "diskCapacity"),
    ]
  ) { parameters in
    EngineConfiguration(
      name: "urlcache-linux",
      // Stored only if cost < capacity (strictly); FIFO by insertion, reads change nothing.
      memory: .preset(
        "fifo", parameters.bytes("memory"), expiry: .urlcacheLinux, admissionLimit: 1, readsUpdateAccessDate: false),
      disk: .preset(
        "fifo", parameters.bytes("disk"), expiry: .urlcacheLinux, admissionLimit: 1, readsUpdateAccessDate: false),
      promotion: .none)
  }
}
