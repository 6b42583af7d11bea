import CacheCore

/// A two-tier cache as app and HTTP caches work: requests go to memory, then disk, then the
/// origin; stored objects expire and revalidate on trace time; lifecycle events and timers
/// run the configured purges. Every step is counted in ``stats``.
///
/// Driven one request at a time (with its `RequestAttributes`); trace time is the only
/// clock, except that the file backend measures its real disk operations.
public final class CacheEngine {
  public let configuration: EngineConfiguration
  /// The tiers, as non-optional constants so that the request path calls them without
  /// reference counting; a tier the configuration lacks is an empty ``Tier/placeholder()``
  /// that is never stored into, and the `has` flags below say which tiers are real.
  let memory: Tier
  let disk: Tier
  /// The disk library's own memory cache (NSURLCache's memory part).
  let diskMemory: Tier
  let hasMemory: Bool
  let hasDisk: Bool
  let hasDiskMemory: Bool
  let backend: (any DiskBackend)?
  @exclusivity(unchecked) var origin = OriginModel()
  /// Every counter but the latencies, which ``latencies`` keeps.
  @exclusivity(unchecked) var counters: EngineStats
  @exclusivity(unchecked) var latencies: LatencyRecorder
  @exclusivity(unchecked) var diskBaseline = DiskCounters()
  @exclusivity(unchecked) var timerDeadlines: [Int64]
  @exclusivity(unchecked) var lastCleanup: Int64 = .min
  /// Every key looked up, when the library keeps such a table (``EngineConfiguration/keyTable``).
  let keyTable: KeyTable?
  /// Storage reused by every disk cleanup.
  @exclusivity(unchecked) var cleanupScratch: [CleanupCandidate] = []

  /// The rules are CacheLab's generic ones (the trace key, every request through the cache,
  /// the trace's cost): the request path applies them without calling the rules.
  let genericRules: Bool
  /// Whether any timer is configured (checked on every request otherwise).
  let hasTimers: Bool
  /// Whether a 304 revalidation agrees with a logged hit (`LibraryRules.logsRevalidationAsHit`).
  let revalidationLogsAsHit: Bool
  /// Rows are served through the memory policy's own loop
  /// (``replay(_:range:)-(UnsafeBufferPointer<Request>,_)``), the tier keeping no metadata:
  /// built for rows without attributes, and ``servesThroughPolicyLoop(_:)``.
  public let throughPolicyLoop: Bool
  /// The engine is a plain policy run (``EngineConfiguration/policyRun(_:timeToLive:)``): the
  /// memory policy's simulation serves and counts every row.
  public let isPolicyRun: Bool
  /// Each row's outcome in the policy loop, reused by every
  /// ``replay(_:range:)-(UnsafeBufferPointer<Request>,_)``.
  @exclusivity(unchecked) var outcomeScratch: [Outcome] = []
  /// The rows with every size 1, for a memory tier that counts objects (reused).
  @exclusivity(unchecked) var objectRowsScratch: [Request] = []

  /// Builds an engine, opening (and recovering) the file store if configured. With
  /// `rowsCarryAttributes` false (a trace format without them), every row it is given must
  /// carry the default attributes, and a configuration that
  /// ``servesThroughPolicyLoop(_:)`` serves them through its policy's loop.
  public init(_ configuration: EngineConfiguration, seed: UInt64 = 0, rowsCarryAttributes: Bool = true)
    throws(EngineError)
  {
    self.configuration = configuration
    hasMemory = configuration.memory != nil
    hasDisk = configuration.disk != nil
    hasDiskMemory = configuration.diskMemory != nil
    genericRules = configuration.rules is GenericRules
    hasTimers = !configuration.timers.isEmpty
    keyTable = configuration.keyTable.map(KeyTable.init)
    revalidationLogsAsHit = configuration.rules.logsRevalidationAsHit
    let isPolicyRun = configuration.policyRun != nil
    self.isPolicyRun = isPolicyRun
    let throughPolicyLoop = !isPolicyRun && !rowsCarryAttributes && Self.servesThroughPolicyLoop(configuration)
    self.throughPolicyLoop = throughPolicyLoop
    if isPolicyRun, configuration.memory == nil || configuration.disk != nil || configuration.diskMemory != nil {
      throw .configuration(ConfigurationError(.invalidValue, "a policy run has one memory tier and nothing else"))
    }
    // A policy run's counters are its policy's: it records no latency.
    counters = isPolicyRun ? .withoutLatency : EngineStats()
    latencies = LatencyRecorder(frequent: configuration.latency.memory.fixed, into: counters)
    do throws(ConfigurationError) {
      // Memory keeps what it evicts when that spills to disk; the disk keeps its victims (their
      // files are deleted); the disk library's memory cache evicts silently.
      let spills = configuration.writePolicy == .writeOnEvict && configuration.disk != nil
      memory =
        try configuration.memory.map { (tier) throws(ConfigurationError) in
          try Tier(
            tier, seed: seed, collectsEvicted: spills, keepsMetadata: !throughPolicyLoop && !isPolicyRun,
            timeToLive: configuration.policyRun?.timeToLive)
        } ?? Tier.placeholder()
      disk =
        try configuration.disk.map { (tier) throws(ConfigurationError) in
          try Tier(tier, seed: seed, collectsEvicted: true)
        } ?? Tier.placeholder()
      diskMemory =
        try configuration.diskMemory.map { (tier) throws(ConfigurationError) in
          try Tier(tier, seed: seed, collectsEvicted: false)
        } ?? Tier.placeholder()
    } catch {
      throw .configuration(error)
    }
    switch configuration.diskBackend {
    case .simulated:
      backend = configuration.disk == nil ? nil : SimulatedDisk(latency: configuration.latency)
    case .file(let directory):
      guard configuration.disk != nil else {
        throw .configuration(ConfigurationError(.invalidValue, "a file backend needs a disk tier"))
      }
      do throws(FileError) {
        backend = try FileStore(directory: directory, namespaces: configuration.namespacesByClass)
      } catch {
        throw .file(error)
      }
    }
    timerDeadlines = [Int64](repeating: .min, count: configuration.timers.count)
    do throws(FileError) {
      try reloadDisk()
    } catch {
      throw .file(error)
    }
  }

  /// Counters since creation or the last ``resetStats()``.
  public var stats: EngineStats {
    if isPolicyRun { return policyRunStats }
    var result = counters
    result.latency = latencies.recorded
    result.tiers = latencies.recordedTiers
    if let backend {
      let now = backend.counters
      result.disk = DiskCounters()
      result.disk.reads = now.reads - diskBaseline.reads
      result.disk.writes = now.writes - diskBaseline.writes
      result.disk.bytesRead = now.bytesRead - diskBaseline.bytesRead
      result.disk.bytesWritten = now.bytesWritten - diskBaseline.bytesWritten
      result.disk.filesCreated = now.filesCreated - diskBaseline.filesCreated
      result.disk.filesDeleted = now.filesDeleted - diskBaseline.filesDeleted
      result.disk.fsyncs = now.fsyncs - diskBaseline.fsyncs
      result.disk.corruptDiscarded = now.corruptDiscarded - diskBaseline.corruptDiscarded
    }
    return result
  }

  /// Zeroes the counters (end of warm-up); cache contents stay.
  public func resetStats() {
    if isPolicyRun {
      memory.simulation.resetCounters()
      return
    }
    counters = EngineStats()
    latencies = LatencyRecorder(frequent: configuration.latency.memory.fixed)
    diskBaseline = backend?.counters ?? DiskCounters()
  }

  /// Objects held by the memory and disk tiers.
  public var memoryObjects: Int { memory.count }
  public var diskObjects: Int { disk.count }
  public var memoryOccupied: Int64 { memory.occupied }
  public var diskOccupied: Int64 { disk.occupied }

  /// The metadata the disk tier holds for `key` (for tests and tools).
  public func diskMetadata(_ key: UInt64) -> EntryMetadata? { disk.metadata(key) }
  /// The metadata the memory tier holds for `key` (nil when it keeps none: ``throughPolicyLoop``).
  public func memoryMetadata(_ key: UInt64) -> EntryMetadata? { memory.metadata(key) }
}
