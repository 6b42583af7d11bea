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
      "Memory tier POLICY[:params]:SIZE (e.g. lru:64MiB, lru:0.1 of the working set as --sizes takes it, clock:10000objects, nscache:100000000cost, fifo:unlimited). With --preset, replaces the presets' memory tier policy and size.",
      valueName: "tier"))
  var memory: String?

  @Option(
    help: ArgumentHelp(
      "Disk tier POLICY[:params]:SIZE (e.g. s3fifo:1GiB, s3fifo:0.5). With --preset, replaces the presets' disk tier policy and size.",
      valueName: "tier"))
  var disk: String?

  @Option(
    help: ArgumentHelp(
      "Expiry of a custom engine's tiers: none, ttl:300s[,sliding], http[:heuristic=0.1][,shared], mknetworkkit, mknetworkkit-intended, urlcache-linux. (default: none)",
      valueName: "model"))
  var expiry: String?

  @Option(
    help: ArgumentHelp(
      "Custom engine: when objects reach disk; write-on-evict spills memory victims to disk. \(WritePolicy.valuesAndDefault(.writeThrough))",
      valueName: "rule"))
  var writePolicy: WritePolicy?

  @Option(
    help: ArgumentHelp(
      "Custom engine: what a disk hit does to memory (tracked: stored like a fetched object). \(Promotion.valuesAndDefault(.tracked))",
      valueName: "rule"))
  var promote: Promotion?

  @Option(
    help: ArgumentHelp(
      "Disk backend: simulated or file:DIR (real files; one subfolder per engine, named from its configuration). (default: simulated)",
      valueName: "backend"))
  var diskBackend: String?

  @Flag(help: "Custom engine: a memory hit also renews the disk copy's access date (PINCache).")
  var memoryHitTouchesDisk = false

  @Flag(help: "With --disk-backend file:DIR, empty each engine's store before the run instead of reusing it.")
  var fresh = false

  @OptionGroup var latency: LatencyOptions

  /// Whether any engine option was given.
  var requested: Bool { preset != nil || memory != nil || disk != nil }

  /// The engines these options describe.
  func engines() throws -> [LabeledEngine] {
    guard requested else {
      guard expiry == nil, writePolicy == nil, promote == nil, diskBackend == nil, !memoryHitTouchesDisk,
        !latency.requested
      else {
        throw ConfigurationError(
          .invalidValue,
          "--expiry, --write-policy, --promote, --memory-hit-touches-disk, --disk-backend, --latency and "
            + "--latency-profile need --preset, --memory or --disk (a plain policy run models no latency)"
        )
      }
      return []
    }
    let backend = try parseBackend()
    let model = try latency.model()
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
        configuration.latency = model
        result.append(LabeledEngine(.preset("\(spec)"), configuration: configuration))
      }
      return try withStores(result, backend)
    }
    let expiryModel = try expiry.map { try ExpiryModel(parsing: $0) } ?? .none
    var memoryTier = memoryOverride
    var diskTier = diskOverride
    memoryTier?.expiry = expiryModel
    diskTier?.expiry = expiryModel
    let write = writePolicy ?? .writeThrough
    let promotion = promote ?? .tracked
    guard diskTier != nil || backend == .simulated else {
      throw ConfigurationError(.invalidValue, "--disk-backend file needs a --disk tier")
    }
    let configuration = EngineConfiguration(
      name: "engine", memory: memoryTier, disk: diskTier, writePolicy: write, promotion: promotion,
      memoryHitTouchesDisk: memoryHitTouchesDisk, latency: model)
    return try withStores([LabeledEngine(.custom, configuration: configuration)], backend)
  }

  /// Gives each engine with a disk tier its own store folder under a file backend, named
  /// from its label and a digest of its whole configuration.
  private func withStores(_ engines: [LabeledEngine], _ backend: DiskBackendKind) throws -> [LabeledEngine] {
    guard case .file(let root) = backend else {
      guard !fresh else { throw ConfigurationError(.invalidValue, "--fresh needs --disk-backend file:DIR") }
      return engines
    }
    var used: Set<String> = []
    var result: [LabeledEngine] = []
    for var engine in engines {
      guard engine.configuration.disk != nil else {
        result.append(engine)
        continue
      }
      let label = engine.kind.bareName
      let readable = String(
        label.map { (c: Character) -> Character in c.isLetter || c.isNumber || "-=.".contains(c) ? c : "_" })
      let digest = String(KeyHash.hash(engine.configuration.summary) >> 32, radix: 16)
      var directory = root + "/" + readable + "-" + digest
      var copy = 2
      while used.contains(directory) {
        directory = root + "/" + readable + "-" + digest + "-\(copy)"
        copy += 1
      }
      used.insert(directory)
      engine.configuration.diskBackend = .file(directory: directory)
      result.append(engine)
    }
    return result
  }

  private func parseBackend() throws -> DiskBackendKind {
    guard let diskBackend else { return .simulated }
    if diskBackend == "simulated" { return .simulated }
    if diskBackend.hasPrefix("file:"), diskBackend.count > 5 {
      return .file(directory: String(diskBackend.dropFirst(5)))
    }
    throw ConfigurationError(.invalidValue, "--disk-backend must be simulated or file:DIRECTORY")
  }

  /// Before replaying: locks each engine's file store against other processes (the locks
  /// returned; keep them for the run), empties it with `--fresh`, otherwise says on standard
  /// error which stores already hold objects (a reused store starts warm).
  func prepareStores(_ engines: [LabeledEngine]) throws -> [StoreLock] {
    var locks: [StoreLock] = []
    for engine in engines {
      guard case .file(let directory) = engine.configuration.diskBackend else { continue }
      try makeDirectories(directory, purpose: "store directory")
      locks.append(try StoreLock(directory))
      if fresh {
        try FileStoreContents.empty(directory)
        continue
      }
      let found = FileStoreContents(directory: directory)
      if found.irregular > 0 {
        StandardError.write(
          "cachelab: skipping \(found.irregular) entries in \(directory) that are not regular files"
            + " (links, FIFOs, devices)\n")
      }
      guard found.objects > 0 else { continue }
      StandardError.write(
        "cachelab: reusing the store in \(directory): \(found.objects) objects, \(ByteCount.format(found.bytes))"
          + " (--fresh empties it first)\n")
    }
    return locks
  }
}

extension WritePolicy: ChoiceOption {}
extension Promotion: ChoiceOption {}
extension ReplayMethod: ChoiceOption {}
