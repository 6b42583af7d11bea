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
    ]
  ) { parameters in
    EngineConfiguration(
      name: "nscache-linux",
      memory: .preset(
        "nscache:count-limit=\(parameters.integer("count-limit"))", parameters.bytes("cost-limit"), unit: .cost))
  }
}
