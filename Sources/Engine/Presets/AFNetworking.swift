import CacheCore

extension EnginePreset {
  /// AFNetworking's AFAutoPurgingImageCache in front of AFImageDownloader's NSURLCache
  /// (seed-systems §3).
  static let afnetworking = EnginePreset(
    name: "afnetworking",
    summary: "image cache purging 100 MB -> 60 MB by last access, over an HTTP URL cache (150 MB disk)",
    origin: "AFNetworking (d9f589c): AFAutoPurgingImageCache.m, AFImageDownloader.m",
    parameters: [
      ParameterSpec("memory", default: "100MiB", .byteCount, help: "image cache capacity (decoded bytes)"),
      ParameterSpec(
        "purge-to", default: "0.6", .real(0...1), help: "usage after a purge, as a fraction of the capacity"),
      ParameterSpec("url-cache-disk", default: "150MiB", .byteCount, help: "NSURLCache disk capacity"),
    ]
  ) { parameters in
    EngineConfiguration(
      name: "afnetworking",
      memory: .preset("access-date-purge:low=\(parameters.real("purge-to"))", parameters.bytes("memory"), unit: .cost),
      // Darwin NSURLCache: RFC 9111 private cache, responses up to 5 % of the disk, LRU assumed.
      disk: .preset("lru", parameters.bytes("url-cache-disk"), expiry: .http(heuristic: 0.1), admissionLimit: 0.05),
      events: [.memoryWarning: [.clearMemory]])
  }
}
