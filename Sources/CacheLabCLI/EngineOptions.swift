import ArgumentParser
import CacheCore
import Engine
import Replay

/// The options of `cachelab run` that build whole cache engines (presets or custom tiers).
struct EngineOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Comma-separated library presets, each name[:k=v,...] (see 'cachelab presets'), replayed as full engines.",
      valueName: "list"))
  var preset: String?

  @Option(
    help: ArgumentHelp(
      "Memory tier POLICY[:params]:SIZE (e.g. lru:64MiB, clock:10000objects, nscache:100000000cost, fifo:unlimited). With --preset, replaces the presets' memory tier policy and size.",
      valueName: "tier"))
  var memory: String?

  @Option(
    help: ArgumentHelp(
      "Disk tier POLICY[:params]:SIZE (e.g. s3fifo:1GiB). With --preset, replaces the presets' disk tier policy and size.",
      valueName: "tier"))
  var disk: String?

  @Option(
    help: ArgumentHelp(
      "Expiry of a custom engine's tiers: none, ttl:300s[,sliding], http[:heuristic=0.1][,shared], mknetworkkit, mknetworkkit-intended, urlcache-linux.",
      valueName: "model"))
  var expiry: String?

  @Option(
    help: ArgumentHelp(
      "Custom engine: write-through or write-on-evict (spill memory victims to disk).", valueName: "rule"))
  var writePolicy: String?

  @Option(
    help: ArgumentHelp("Custom engine: what a disk hit does to memory: tracked, untracked or none.", valueName: "rule"))
  var promote: String?

  @Option(
    help: ArgumentHelp(
      "Disk backend: simulated (default) or file:DIR (real files; one subfolder per engine).", valueName: "backend"))
  var diskBackend: String?

  @Flag(help: "Custom engine: a memory hit also renews the disk copy's access date (PINCache).")
  var memoryHitTouchesDisk = false

  /// Whether any engine option was given.
  var requested: Bool { preset != nil || memory != nil || disk != nil }

  /// The engines these options describe.
  func engines() throws -> [LabeledEngine] {
    guard requested else {
      guard expiry == nil, writePolicy == nil, promote == nil, diskBackend == nil, !memoryHitTouchesDisk else {
        throw ConfigurationError(
          .invalidValue,
          "--expiry, --write-policy, --promote, --memory-hit-touches-disk and --disk-backend need --preset, --memory or --disk"
        )
      }
      return []
    }
    let backend = try parseBackend()
    let memoryOverride = try memory.map { try TierConfiguration(parsing: $0) }
    let diskOverride = try disk.map { try TierConfiguration(parsing: $0) }
    var result: [LabeledEngine] = []
    if let preset {
      guard expiry == nil, writePolicy == nil, promote == nil, !memoryHitTouchesDisk else {
        throw ConfigurationError(
          .invalidValue,
          "--expiry, --write-policy, --promote and --memory-hit-touches-disk describe a custom engine; presets fix them"
        )
      }
      for spec in try PresetSpec.parseList(preset) {
        var configuration = spec.configuration
        if let memoryOverride {
          let expiry = configuration.memory?.expiry ?? .none
          configuration.memory = memoryOverride
          configuration.memory?.expiry = expiry
        }
        if let diskOverride {
          var replacement = diskOverride
          replacement.expiry = configuration.disk?.expiry ?? .none
          replacement.blockSize = configuration.disk?.blockSize ?? 0
          configuration.disk = replacement
        }
        configuration.diskBackend = Self.backend(backend, for: spec.preset.name)
        result.append(LabeledEngine(label: "preset:\(spec)", configuration: configuration))
      }
      return result
    }
    let model = try expiry.map { try ExpiryModel(parsing: $0) } ?? .none
    var memoryTier = memoryOverride
    var diskTier = diskOverride
    memoryTier?.expiry = model
    diskTier?.expiry = model
    guard let write = WritePolicy(rawValue: writePolicy ?? "write-through") else {
      throw ConfigurationError(.invalidValue, "--write-policy must be write-through or write-on-evict")
    }
    guard let promotion = Promotion(rawValue: promote ?? "tracked") else {
      throw ConfigurationError(.invalidValue, "--promote must be tracked, untracked or none")
    }
    guard diskTier != nil || backend == .simulated else {
      throw ConfigurationError(.invalidValue, "--disk-backend file needs a --disk tier")
    }
    let configuration = EngineConfiguration(
      name: "engine", memory: memoryTier, disk: diskTier, writePolicy: write, promotion: promotion,
      memoryHitTouchesDisk: memoryHitTouchesDisk, diskBackend: Self.backend(backend, for: "engine"))
    return [LabeledEngine(label: "engine", configuration: configuration)]
  }

  private func parseBackend() throws -> DiskBackendKind {
    guard let diskBackend else { return .simulated }
    if diskBackend == "simulated" { return .simulated }
    if diskBackend.hasPrefix("file:"), diskBackend.count > 5 {
      return .file(directory: String(diskBackend.dropFirst(5)))
    }
    throw ConfigurationError(.invalidValue, "--disk-backend must be simulated or file:DIRECTORY")
  }

  private static func backend(_ base: DiskBackendKind, for name: String) -> DiskBackendKind {
    if case .file(let directory) = base { return .file(directory: directory + "/" + name) }
    return base
  }
}
