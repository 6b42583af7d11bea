import CacheCore

/// When memory objects reach the disk tier.
public enum WritePolicy: String, Sendable, CaseIterable {
  /// Every fetched object is written to disk at once (and to memory).
  case writeThrough = "write-through"
  /// Objects reach disk only when memory evicts (or flushes) them (MKNetworkKit's MKCache).
  case writeOnEvict = "write-on-evict"
}

/// What a disk hit does to the memory tier.
public enum Promotion: String, Sendable, CaseIterable {
  /// Nothing: the object is served from disk.
  case none
  /// The object is stored in memory like a fetched one.
  case tracked
  /// The object is kept in memory outside the memory policy and its capacity, until memory
  /// is cleared or flushed (MKNetworkKit's untracked promotion).
  case untracked
}

/// Which date a disk cleanup ages objects by.
public enum DateKind: String, Sendable {
  case access, modification, creation
  /// The file's attribute change time: moved by writes and by every access-date update.
  case change
}

/// A disk cleanup pass as image libraries run it on lifecycle events: drop expired or old
/// files, then, if over a size limit, drop the least recently accessed until below a target.
public struct DiskCleanup: Sendable, Equatable {
  /// Delete objects whose `dateKind` date is at or before now − `maxAge` (µs; nil: no age limit).
  public var maxAge: Int64?
  public var dateKind: DateKind
  /// Delete objects whose library expiry has passed (Kingfisher).
  public var removeExpired: Bool
  /// Size limit in the disk tier's units (0: none).
  public var sizeLimit: Int64
  /// Trim when the size is at or above the limit (Kingfisher) instead of strictly above.
  public var trimAtLimit: Bool
  /// Trim down to `target` × the limit (0.5 SDWebImage and Kingfisher, 0.7 Nuke).
  public var target: Double
  /// Stop only strictly below the target (SDWebImage) instead of at or below it.
  public var stopStrictlyBelow: Bool
  /// Skip the pass if the previous one ran less than this long ago (µs; Nuke: 1800 s).
  public var minimumInterval: Int64

  public init(
    maxAge: Int64? = nil, dateKind: DateKind = .access, removeExpired: Bool = false, sizeLimit: Int64 = 0,
    trimAtLimit: Bool = false, target: Double = 0.5, stopStrictlyBelow: Bool = false, minimumInterval: Int64 = 0
  ) {
    self.maxAge = maxAge
    self.dateKind = dateKind
    self.removeExpired = removeExpired
    self.sizeLimit = sizeLimit
    self.trimAtLimit = trimAtLimit
    self.target = target
    self.stopStrictlyBelow = stopStrictlyBelow
    self.minimumInterval = minimumInterval
  }
}

/// Something an engine does on a lifecycle event or timer.
public enum EngineAction: Sendable, Equatable {
  /// Empty the memory tier (memory warning).
  case clearMemory
  /// Evict from memory until it holds at most this fraction of its capacity.
  case trimMemory(fraction: Double)
  /// Write every memory object to disk, then empty memory (MKNetworkKit's flush).
  case flushMemoryToDisk
  /// Remove expired objects from memory (Kingfisher's 120 s timer).
  case removeExpiredMemory
  /// Run a disk cleanup pass.
  case diskCleanup(DiskCleanup)
  /// A manager pass over the key table (``EngineConfiguration/keyTable``): keys unused for its
  /// inactive time go, then the least recently looked-up keys while the disk holds `sizeLimit`
  /// units or more (0: no limit) or the key count is at the watermark; each with its object.
  case trimKeys(sizeLimit: Int64)
}

/// A recurring action on trace time.
public struct EngineTimer: Sendable, Equatable {
  /// Period in microseconds of trace time.
  public var interval: Int64
  public var actions: [EngineAction]
  /// When the timer first fires after the trace's first request (µs; nil: one `interval`);
  /// a server whose timer started before the trace (nginx's cache manager) sets its phase.
  public var firstAfter: Int64?

  public init(interval: Int64, actions: [EngineAction], firstAfter: Int64? = nil) {
    self.interval = interval
    self.actions = actions
    self.firstAfter = firstAfter
  }
}

/// Where the disk tier stores its objects.
public enum DiskBackendKind: Sendable, Equatable, CustomStringConvertible {
  /// Bookkeeping only, with the latency model.
  case simulated
  /// A real directory: one file per object named by the MD5 of its key.
  case file(directory: String)

  public var description: String {
    switch self {
    case .simulated: return "simulated"
    case .file(let directory): return "file:\(directory)"
    }
  }
}

/// A complete cache engine: a memory tier, an optional disk tier, the rules between them,
/// and what lifecycle events and timers do. Presets are values of this type.
public struct EngineConfiguration: Sendable {
  /// Name in reports (a preset name, or `custom`).
  public var name: String
  public var memory: TierConfiguration?
  public var disk: TierConfiguration?
  /// The disk library's own memory cache (NSURLCache's memory capacity): filled by disk
  /// stores and hits, emptied with the disk entry; a disk hit found there reads no file.
  public var diskMemory: TierConfiguration?
  public var writePolicy: WritePolicy
  public var promotion: Promotion
  /// Whether a memory hit also updates the disk copy's access date (PINCache).
  public var memoryHitTouchesDisk: Bool
  /// Disk files live in one folder per content class (ZZDiskCache).
  public var namespacesByClass: Bool
  public var events: [LifecycleEvent: [EngineAction]]
  public var timers: [EngineTimer]
  public var latency: LatencyModel
  public var diskBackend: DiskBackendKind
  /// The library's own decisions (keys, statuses, costs, 304s); ``GenericRules`` for custom engines.
  public var rules: any LibraryRules
  /// The table of every key looked up, when the library keeps one (nginx's keys zone).
  public var keyTable: KeyTableRule?
  /// Set when the engine is a plain policy run of its memory tier (``policyRun(_:timeToLive:)``).
  public var policyRun: PolicyRun?

  public init(
    name: String, memory: TierConfiguration?, disk: TierConfiguration? = nil, diskMemory: TierConfiguration? = nil,
    writePolicy: WritePolicy = .writeThrough, promotion: Promotion = .tracked, memoryHitTouchesDisk: Bool = false,
    namespacesByClass: Bool = false, events: [LifecycleEvent: [EngineAction]] = [:], timers: [EngineTimer] = [],
    latency: LatencyModel = LatencyModel(), diskBackend: DiskBackendKind = .simulated,
    rules: any LibraryRules = GenericRules(), keyTable: KeyTableRule? = nil
  ) {
    self.name = name
    self.memory = memory
    self.disk = disk
    self.diskMemory = diskMemory
    self.writePolicy = writePolicy
    self.promotion = promotion
    self.memoryHitTouchesDisk = memoryHitTouchesDisk
    self.namespacesByClass = namespacesByClass
    self.events = events
    self.timers = timers
    self.latency = latency
    self.diskBackend = diskBackend
    self.rules = rules
    self.keyTable = keyTable
  }

  /// Whether a tier's size is a fraction of the working set (the replayer measures it first).
  public var needsWorkingSet: Bool { [memory, disk, diskMemory].contains { $0?.fraction != nil } }

  /// The configuration with each fractional tier size resolved against `workingSet` (bytes,
  /// or objects in object mode), at least 1; the fraction stays for the reports.
  public func resolvingFractions(workingSet: Int64) -> EngineConfiguration {
    func resolved(_ tier: TierConfiguration?) -> TierConfiguration? {
      guard var tier, let fraction = tier.fraction else { return tier }
      tier.capacity = max(1, CapacitySpec.fraction(fraction).resolve(workingSet: workingSet))
      return tier
    }
    var configuration = self
    configuration.memory = resolved(memory)
    configuration.disk = resolved(disk)
    configuration.diskMemory = resolved(diskMemory)
    return configuration
  }

  /// The configuration in one line (for reports): tiers, expiry and rules.
  public var summary: String {
    var parts: [String] = []
    if let memory { parts.append("memory=\(memory) expiry=\(memory.expiry)") }
    if let disk { parts.append("disk=\(disk) expiry=\(disk.expiry) backend=\(diskBackend)") }
    if let diskMemory { parts.append("disk-memory=\(diskMemory)") }
    if disk != nil {
      parts.append("write=\(writePolicy.rawValue)")
      if memory != nil { parts.append("promote=\(promotion.rawValue)") }
      if memory != nil, memoryHitTouchesDisk { parts.append("memory-hit-touches-disk") }
    }
    return parts.joined(separator: " ")
  }
}
