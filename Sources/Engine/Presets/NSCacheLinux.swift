import CacheCore

extension EnginePreset {
  /// swift-corelibs-foundation's NSCache on Linux (seed-systems §4.1).
  static let nscacheLinux = EnginePreset(
    name: "nscache-linux",
    summary: "Linux Foundation NSCache: cheapest first (newest among equal costs), reads have no effect",
    origin: "swift-corelibs-foundation (761b621): NSCache.swift",
    parameters: [
      ParameterSpec("cost-limit", default: "0", .byteCount, help: "totalCostLimit (0: none)"),
      ParameterSpec("count-limit", default: "0", .integer(0...Int64(Int32.max)), help: "countLimit (0: none)"),
    ],
    modelled: [
      "entries ordered by cost, cheapest first; a new entry goes before entries of equal cost (NSCache.swift insert L102–134)",
      "a store inserts first, then removes the cheapest while over the cost limit, then while over the count limit:"
        + " the new object itself, or everything cheaper than an oversize object, can go at once"
        + " (NSCache.swift setObject(_:forKey:cost:) L164–192)",
      "a re-store at the same cost keeps the entry's place; at another cost it is placed again as new (L144–153)",
      "object(forKey:) has no side effects: reads change nothing (L72–84)",
      "an app stores what it fetched successfully (status 2xx)",
    ],
    notModelled: [
      "Darwin's NSCache (closed source; evicts oldest first and on memory pressure): use sdwebimage/kingfisher",
      "NSDiscardableContent and evictsObjectsWithDiscardedContent (ignored on Linux too)",
      "negative costs (clamped to 0 by NSCache; traces cannot hold them)",
    ]
  ) { parameters in
    EngineConfiguration(
      name: "nscache-linux",
      memory: .preset(
        "nscache:count-limit=\(parameters.integer("count-limit"))", parameters.bytes("cost-limit"), unit: .cost),
      rules: NSCacheLinuxRules())
  }
}

/// An app filling an NSCache: the trace key and cost, successful responses only.
struct NSCacheLinuxRules: LibraryRules {}
