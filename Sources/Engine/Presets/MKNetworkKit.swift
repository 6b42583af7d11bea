import CacheCore

extension EnginePreset {
  /// MKNetworkKit 2.x's MKCache as it behaves, bugs included (seed-systems §1).
  static let mknetworkkit = EnginePreset(
    name: "mknetworkkit",
    summary: "MKCache: 10-item memory LRU by write, spill to unbounded disk, flush on events; header bugs kept",
    origin: "MKNetworkKit 2.x (6e8324c): MKCache.m, NSHTTPURLResponse+MKNKAdditions.m",
    parameters: [ParameterSpec("memory-count", default: "10", .integer(1...1_000_000), help: "objects kept in memory")]
  ) { parameters in
    mknetworkkitConfiguration("mknetworkkit", parameters, faithful: true)
  }

  /// MKNetworkKit 2.x as its comments and README describe it (seed-systems §1.5).
  static let mknetworkkitIntended = EnginePreset(
    name: "mknetworkkit-intended",
    summary: "MKCache as intended: expiry from max-age/Expires/600 s/7 d, 304 keeps the body, tracked promotion",
    origin: "MKNetworkKit 2.x comments and README",
    parameters: [ParameterSpec("memory-count", default: "10", .integer(1...1_000_000), help: "objects kept in memory")]
  ) { parameters in
    mknetworkkitConfiguration("mknetworkkit-intended", parameters, faithful: false)
  }

  /// Memory: count-limited, recency only on writes (a FIFO that a re-store moves to the
  /// front); memory victims spill to an unbounded disk; memory warning, background,
  /// terminate and resign-active flush memory to disk. Faithful mode promotes disk hits
  /// untracked (outside the count) and keeps the header bugs.
  static func mknetworkkitConfiguration(_ name: String, _ parameters: Parameters, faithful: Bool) -> EngineConfiguration
  {
    let expiry = ExpiryModel.mknetworkkit(faithful: faithful)
    let flush: [EngineAction] = [.flushMemoryToDisk]
    return EngineConfiguration(
      name: name,
      memory: .preset("fifo", parameters.integer("memory-count"), unit: .count, expiry: expiry),
      disk: .preset("fifo", 0, expiry: expiry),
      writePolicy: .writeOnEvict,
      promotion: faithful ? .untracked : .tracked,
      events: [.memoryWarning: flush, .background: flush, .terminate: flush, .resignActive: flush])
  }
}
