import CacheCore

extension EnginePreset {
  /// AFNetworking's AFAutoPurgingImageCache in front of AFImageDownloader's NSURLCache
  /// (seed-systems §3).
  static let afnetworking = EnginePreset(
    name: "afnetworking",
    summary: "image cache purging 100 MB -> 60 MB by last access, over an HTTP URL cache (20 MB memory, 150 MB disk)",
    origin:
      "AFNetworking 4.0.1 (d9f589c): AFAutoPurgingImageCache.m, AFImageDownloader.m, AFURLResponseSerialization.m",
    parameters: [
      ParameterSpec(
        "memory", default: "100MiB", .positiveByteCount,
        help:
          "image cache capacity (decoded bytes; 0 refused: the cache purges whenever usage exceeds it, AFAutoPurgingImageCache.m)"
      ),
      ParameterSpec(
        "purge-to", default: "0.6", .real(0...1), help: "usage after a purge, as a fraction of the capacity"),
      ParameterSpec(
        "url-cache-memory", default: "20MiB", .positiveByteCount,
        help: "NSURLCache memory capacity (0 refused: NSURLCache would keep no responses in memory)"),
      ParameterSpec(
        "url-cache-disk", default: "150MiB", .positiveByteCount,
        help: "NSURLCache disk capacity (0 refused: NSURLCache would store nothing on disk)"),
    ],
    modelled: [
      "only 2xx responses are decoded and cached (AFURLResponseSerialization.m L99, L132; AFImageDownloader.m L268–270)",
      "image cache: when over capacity, purge by last access date (reads update it) down to purge-to"
        + " (AFAutoPurgingImageCache.m), emptied on memory warning",
      "image-cache hits need no freshness check; misses go through NSURLCache with RFC 9111 rules",
      "NSURLCache of 20 MiB memory and 150 MiB disk (AFImageDownloader.m L123–125): hits in its memory"
        + " part cost no disk read",
      "NSURLCache stores responses up to 5 % of its disk (Apple's documentation)",
    ],
    notModelled: [
      "Darwin NSURLCache internals (closed source): LRU order, 10 % heuristic freshness are assumptions",
      "merging of identical in-flight downloads and the 4-download limit",
    ]
  ) { parameters in
    EngineConfiguration(
      name: "afnetworking",
      memory: .preset("access-date-purge:low=\(parameters.real("purge-to"))", parameters.bytes("memory"), unit: .cost),
      // Darwin NSURLCache: RFC 9111 private cache, responses up to 5 % of the disk, LRU assumed.
      disk: .preset("lru", parameters.bytes("url-cache-disk"), expiry: .http(heuristic: 0.1), admissionLimit: 0.05),
      diskMemory: .preset("lru", parameters.bytes("url-cache-memory")),
      events: [.memoryWarning: [.clearMemory]],
      rules: ImageLibraryRules.twoHundreds)
  }
}
