import CacheCore

extension EnginePreset {
  /// Nuke 13.1+ ImageCache with its DataCache (`ImagePipeline.Configuration.withDataCache`)
  /// (seed-systems §6).
  static let nuke = EnginePreset(
    name: "nuke",
    summary: "CLOCK memory (entries < 10 % of the limit), DataCache swept at launch to 70 % by access date",
    origin: "Nuke 13.2 (c4fc70a): Cache.swift, ImageCache.swift, DataCache.swift",
    parameters: [
      ParameterSpec(
        "memory", default: "614MiB", .positiveByteCount,
        help:
          "cost limit: min(15 % of RAM, 768 MiB) on a 4 GiB device (0 refused: Cache.swift trims while totalCost > limit)"
      ),
      ParameterSpec(
        "disk", default: "150MiB", .positiveByteCount,
        help: "DataCache sizeLimit (allocated bytes; 0 refused: a sweep would delete everything)"),
      ParameterSpec("sweep-interval", default: "1800s", .duration, help: "minimum time between launch sweeps"),
    ],
    modelled: [
      "only 2xx responses are stored (DataLoader.swift L74 validate: 200..<300)",
      "memory: CLOCK by cost (13.1+), entries of at least 10 % of the limit not admitted (Cache.swift)",
      "memory warning empties memory; background trims it to 10 % (Cache.swift)",
      "DataCache: allocated bytes, swept at launch (at most every 30 min) oldest by access to 70 % of the limit"
        + " (DataCache.swift)",
    ],
    notModelled: [
      "the URLCache of the default pipeline (the preset models the data-cache pipeline)",
      "the 5 s delay of the launch sweep and DataCache's asynchronous writes",
    ]
  ) { parameters in
    let sweep = DiskCleanup(
      dateKind: .access, sizeLimit: parameters.bytes("disk"), target: 0.7,
      minimumInterval: parameters.duration("sweep-interval"))
    return EngineConfiguration(
      name: "nuke",
      memory: .preset("clock", parameters.bytes("memory"), unit: .cost, admissionLimit: 0.1),
      disk: .preset("fifo", 0, blockSize: PresetDefaults.block),
      events: [
        .memoryWarning: [.clearMemory], .background: [.trimMemory(fraction: 0.1)], .launch: [.diskCleanup(sweep)],
      ],
      rules: ImageLibraryRules.twoHundreds)
  }
}
