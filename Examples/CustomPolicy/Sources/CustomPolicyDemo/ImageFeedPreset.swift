import CacheCore
import Engine
import Policies

extension EnginePreset {
  /// An app's own image cache: a midpoint-LRU memory tier over a plain LRU disk tier with a
  /// week's lifetime, written through. A preset defined and registered by the program that
  /// uses CacheLab, not by CacheLab.
  static func imageFeed() throws(ConfigurationError) -> EnginePreset {
    let memoryPolicy = try PolicySpec(parsing: "midpoint-lru")
    let diskPolicy = try PolicySpec(parsing: "lru")
    return EnginePreset(
      name: "image-feed",
      summary: "example app cache: midpoint-LRU memory over an LRU disk, 7-day lifetime",
      origin: "Examples/CustomPolicy (a user-defined preset)",
      parameters: [
        ParameterSpec("memory", default: "32MiB", .byteCount, help: "memory tier capacity"),
        ParameterSpec("disk", default: "256MiB", .byteCount, help: "disk tier capacity"),
      ],
      modelled: ["memory: midpoint-LRU by bytes", "disk: LRU by bytes, objects live 7 days after they are stored"],
      notModelled: ["everything an app does besides caching"]
    ) { parameters in
      EngineConfiguration(
        name: "image-feed",
        memory: TierConfiguration(policy: memoryPolicy, capacity: parameters.bytes("memory")),
        disk: TierConfiguration(
          policy: diskPolicy, capacity: parameters.bytes("disk"),
          expiry: .ttl(microseconds: 7 * 86_400 * 1_000_000, sliding: false)))
    }
  }
}
