import CacheCore
import Policies

/// A two-tier cache as app and HTTP caches work: requests go to memory, then disk, then the
/// origin; stored objects expire and revalidate on trace time; lifecycle events and timers
/// run the configured purges. Every step is counted in ``stats``.
///
/// Driven one request at a time (with its `RequestAttributes`); trace time is the only
/// clock, except that the file backend measures its real disk operations.
public final class CacheEngine {
  public let configuration: EngineConfiguration
  private var memory: Tier?
  private var disk: Tier?
  /// The disk library's own memory cache (NSURLCache's memory part), nil without one.
  private var diskMemory: Tier?
  private var diskMemoryEvicted: [(key: UInt64, metadata: EntryMetadata)] = []
  private let backend: (any DiskBackend)?
  private var origin = OriginModel()
  private var counters = EngineStats()
  private var diskBaseline = DiskCounters()
  private var timerDeadlines: [Int64]
  private var lastCleanup: Int64 = .min
  private var evicted: [(key: UInt64, metadata: EntryMetadata)] = []
  private let seed: UInt64

  /// Builds an engine, opening (and recovering) the file store if configured.
  public init(_ configuration: EngineConfiguration, seed: UInt64 = 0) throws(EngineError) {
    self.configuration = configuration
    self.seed = seed
    do throws(ConfigurationError) {
      memory = try configuration.memory.map { (tier) throws(ConfigurationError) in try Tier(tier, seed: seed) }
      disk = try configuration.disk.map { (tier) throws(ConfigurationError) in try Tier(tier, seed: seed) }
      diskMemory = try configuration.diskMemory.map { (tier) throws(ConfigurationError) in
        try Tier(tier, seed: seed)
      }
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
    evicted.reserveCapacity(64)
    do throws(FileError) {
      try reloadDisk()
    } catch {
      throw .file(error)
    }
  }

  /// Counters since creation or the last ``resetStats()``.
  public var stats: EngineStats {
    var result = counters
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
    counters = EngineStats()
    diskBaseline = backend?.counters ?? DiskCounters()
  }

  /// Objects held by the memory and disk tiers.
  public var memoryObjects: Int { memory?.count ?? 0 }
  public var diskObjects: Int { disk?.count ?? 0 }
  public var memoryOccupied: Int64 { memory?.occupied ?? 0 }
  public var diskOccupied: Int64 { disk?.occupied ?? 0 }

  /// The metadata the disk tier holds for `key` (for tests and tools).
  public func diskMetadata(_ key: UInt64) -> EntryMetadata? { disk?.metadata(key) }
  /// The metadata the memory tier holds for `key`.
  public func memoryMetadata(_ key: UInt64) -> EntryMetadata? { memory?.metadata(key) }

  // MARK: Requests

  /// Handles one trace row. Tiers see the key the library files it under
  /// (``LibraryRules/cacheKey(_:_:)``); the origin keeps the trace key.
  public func process(_ request: Request, _ attributes: RequestAttributes) throws(EngineError) {
    do throws(FileError) {
      try fireTimers(request.time)
      var filed = request
      filed.key = configuration.rules.cacheKey(request.key, attributes)
      switch request.operation {
      case .get:
        let current = origin.current(request.key, attributes)
        if configuration.rules.usesCache(attributes) {
          try get(filed, current)
        } else {
          try bypass(filed, current)
        }
      case .put:
        guard configuration.rules.usesCache(attributes) else { return }
        try store(filed, origin.current(request.key, attributes), now: request.time, roundTrip: 0)
      case .delete: try remove(filed.key)
      case .origin: origin.update(request.key, attributes)
      case .event: try handle(attributes.event, now: request.time)
      }
    } catch {
      throw .file(error)
    }
  }

  /// A request the library sends past its cache: counted, fetched, never stored.
  private func bypass(_ request: Request, _ current: RequestAttributes) throws(FileError) {
    counters.requests += 1
    counters.requestBytes += request.size
    counters.bypassed += 1
    var latency: Int64 = 0
    defer { _ = counters.latency.record(UInt64(max(latency, 0))) }
    try fetch(request, current, now: request.time, latency: &latency, storing: false)
  }

  private func roundTrip(_ attributes: RequestAttributes) -> Int64 {
    attributes.latency >= 0 ? attributes.latency : configuration.latency.originRoundTrip
  }

  private func transfer(_ bytes: Int64) -> Int64 {
    Int64(Double(bytes) / configuration.latency.originBytesPerSecond * 1e6)
  }

  private func get(_ request: Request, _ current: RequestAttributes) throws(FileError) {
    let now = request.time
    counters.requests += 1
    counters.requestBytes += request.size
    var latency: Int64 = 0
    defer { _ = counters.latency.record(UInt64(max(latency, 0))) }

    if let memory, let stored = memory.metadata(request.key) {
      switch memory.configuration.expiry.freshness(of: stored, now: now) {
      case .fresh:
        latency += configuration.latency.memoryHit
        try serve(request, stored, current, fromDisk: false, now: now)
        return
      case .serveThenRevalidate:
        latency += configuration.latency.memoryHit
        counters.servedWhileRevalidating += 1
        try serve(request, stored, current, fromDisk: false, now: now)
        try revalidate(request, stored, current, inDisk: false, now: now, background: true, latency: &latency)
        return
      case .mustRevalidate:
        counters.expired += 1
        try revalidate(request, stored, current, inDisk: false, now: now, background: false, latency: &latency)
        return
      case .expired:
        counters.expired += 1
        if memory.configuration.expiry.rule.removesExpiredAtLookup { memory.remove(request.key) }
      }
    }

    if let disk, let stored = disk.metadata(request.key) {
      let freshness = disk.configuration.expiry.freshness(of: stored, now: now)
      if freshness == .fresh || freshness == .serveThenRevalidate {
        let inDiskMemory = diskMemory?.metadata(request.key) != nil
        let readCost = inDiskMemory ? configuration.latency.memoryHit : try backend?.read(request.key, stored)
        guard let readCost else {
          disk.remove(request.key)
          forgetOnDisk(request.key)
          try fetch(request, current, now: now, latency: &latency)
          return
        }
        if inDiskMemory { diskMemory?.touch(request.key) } else { rememberInDiskMemory(request.key, stored) }
        latency += readCost
        if freshness == .serveThenRevalidate { counters.servedWhileRevalidating += 1 }
        try serve(request, stored, current, fromDisk: true, now: now)
        if freshness == .serveThenRevalidate {
          try revalidate(request, stored, current, inDisk: true, now: now, background: true, latency: &latency)
        }
        return
      }
      counters.expired += 1
      if freshness == .mustRevalidate {
        try revalidate(request, stored, current, inDisk: true, now: now, background: false, latency: &latency)
        return
      }
      if disk.configuration.expiry.rule.removesExpiredAtLookup, let old = disk.remove(request.key) {
        forgetOnDisk(request.key)
        try backend?.delete(request.key, old)
      }
    }
    try fetch(request, current, now: now, latency: &latency)
  }

  /// Answers from a tier: counts the hit, updates dates and recency, promotes disk hits.
  private func serve(
    _ request: Request, _ stored: EntryMetadata, _ current: RequestAttributes, fromDisk: Bool, now: Int64
  ) throws(FileError) {
    if fromDisk { counters.diskHits += 1 } else { counters.memoryHits += 1 }
    counters.hitBytes += request.size
    if stored.version >= 0, current.version >= 0, stored.version < current.version { counters.staleServed += 1 }
    if stored.bodyLost { counters.lostBodyServed += 1 }
    guard let tier = fromDisk ? disk : memory else { return }
    var updated = stored
    updated.accessCount &+= 1
    if !fromDisk || tier.configuration.readsUpdateAccessDate {
      updated.accessedAt = now
      tier.configuration.expiry.touch(&updated, now: now)
    }
    tier.update(request.key) { $0 = updated }
    tier.touch(request.key)
    if fromDisk {
      if updated != stored { try backend?.updateDates(request.key, updated) }
      try promote(request.key, updated, now: now)
    } else if configuration.memoryHitTouchesDisk, let disk, var copy = disk.metadata(request.key) {
      copy.accessedAt = now
      disk.update(request.key) { $0 = copy }
      disk.touch(request.key)
      try backend?.updateDates(request.key, copy)
    }
  }

  private func promote(_ key: UInt64, _ stored: EntryMetadata, now: Int64) throws(FileError) {
    guard let memory else { return }
    switch configuration.promotion {
    case .none:
      return
    case .untracked:
      memory.insertUntracked(key, stored)
    case .tracked:
      var copy = stored
      copy.cost = configuration.rules.promotionCost(stored)
      copy.accessedAt = now
      var attributes = RequestAttributes()
      attributes.ttl = -1
      memory.configuration.expiry.prepare(&copy, attributes: attributes, now: now)
      try putInMemory(key, copy)
    }
  }

  /// A full request to the origin; stores the response if it succeeded.
  private func fetch(
    _ request: Request, _ current: RequestAttributes, now: Int64, latency: inout Int64, storing: Bool = true
  ) throws(FileError) {
    let roundTrip = roundTrip(current)
    latency += roundTrip
    guard !current.originFailed else {
      counters.originErrors += 1
      return
    }
    counters.originFetches += 1
    counters.originBytes += request.size + configuration.latency.headerBytes
    latency += transfer(request.size + configuration.latency.headerBytes)
    if storing { try store(request, current, now: now, roundTrip: roundTrip) }
  }

  /// Revalidates a stored object: a conditional request (304 or 200) when it has validators,
  /// otherwise a full fetch. In the background the client was already served.
  private func revalidate(
    _ request: Request, _ stored: EntryMetadata, _ current: RequestAttributes, inDisk: Bool, now: Int64,
    background: Bool, latency: inout Int64
  ) throws(FileError) {
    let tier = inDisk ? disk : memory
    let roundTrip = roundTrip(current)
    if current.originFailed {
      if background { return }
      if let tier, tier.configuration.expiry.mayServeOnError(stored, now: now) {
        latency += inDisk ? (try backend?.read(request.key, stored) ?? 0) : configuration.latency.memoryHit
        counters.servedOnError += 1
        try serve(request, stored, current, fromDisk: inDisk, now: now)
        return
      }
      latency += roundTrip
      counters.originErrors += 1
      return
    }
    guard stored.hasValidators else {
      if background {
        var ignored: Int64 = 0
        try fetch(request, current, now: now, latency: &ignored)
      } else {
        try fetch(request, current, now: now, latency: &latency)
      }
      return
    }
    if !background { latency += roundTrip + transfer(configuration.latency.headerBytes) }
    guard stored.validates(against: current) else {
      counters.revalidated200 += 1
      counters.originFetches += 1
      counters.originBytes += request.size + configuration.latency.headerBytes
      if !background { latency += transfer(request.size) }
      try store(request, current, now: now, roundTrip: roundTrip)
      return
    }
    counters.revalidated304 += 1
    counters.originBytes += configuration.latency.headerBytes
    if configuration.rules.notModified == .storeEmptyBody {
      var empty = request
      empty.size = 0
      var headers = current
      headers.contentClass = .data
      headers.status = 304
      try store(empty, headers, now: now, roundTrip: roundTrip, bodyLost: true)
      return
    }
    guard let tier else { return }
    var refreshed = stored
    refreshed.response = HTTPFreshness.Response(
      cacheControl: current.cacheControl, expires: current.expires, date: current.date,
      lastModified: current.lastModified == RequestAttributes.absent
        ? stored.response.lastModified : current.lastModified,
      age: current.age, status: stored.response.status, requestTime: now, responseTime: now + roundTrip)
    if current.etag != 0 {
      refreshed.etag = current.etag
      refreshed.etagIsWeak = current.etagIsWeak
    }
    refreshed.version = current.version
    refreshed.modifiedAt = now
    tier.configuration.expiry.prepare(&refreshed, attributes: current, now: now)
    tier.update(request.key) { $0 = refreshed }
    if inDisk { try backend?.updateDates(request.key, refreshed) }
  }

  // MARK: Storing

  /// Stores a response in the tiers the write rules choose.
  private func store(
    _ request: Request, _ attributes: RequestAttributes, now: Int64, roundTrip: Int64, bodyLost: Bool = false
  ) throws(FileError) {
    let storable = bodyLost || configuration.rules.storesStatus(attributes.status == 0 ? 200 : attributes.status)
    let cost = configuration.rules.cost(request, attributes)
    var base = EntryMetadata(request: request, attributes: attributes, cost: cost, now: now, latency: roundTrip)
    base.bodyLost = bodyLost
    if let memory, storable, memory.configuration.expiry.allowsStoring(attributes, now: now) || bodyLost {
      var copy = base
      memory.configuration.expiry.prepare(&copy, attributes: attributes, now: now)
      try putInMemory(request.key, copy)
    } else if let memory {
      memory.remove(request.key)
    }
    guard let disk, configuration.writePolicy == .writeThrough || memory == nil else { return }
    if storable, disk.configuration.expiry.allowsStoring(attributes, now: now) || bodyLost {
      var copy = base
      disk.configuration.expiry.prepare(&copy, attributes: attributes, now: now)
      try putOnDisk(request.key, copy)
    } else if let old = disk.remove(request.key) {
      forgetOnDisk(request.key)
      try backend?.delete(request.key, old)
    }
  }

  private func putInMemory(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    guard let memory else { return }
    evicted.removeAll(keepingCapacity: true)
    _ = memory.insert(key, metadata, evicted: &evicted)
    counters.memoryEvictions += Int64(evicted.count)
    guard configuration.writePolicy == .writeOnEvict, disk != nil, !evicted.isEmpty else { return }
    let spilled = evicted
    for (victim, victimMetadata) in spilled { try putOnDisk(victim, victimMetadata) }
  }

  private func putOnDisk(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    guard let disk else { return }
    let previous = disk.metadata(key)
    var dropped: [(key: UInt64, metadata: EntryMetadata)] = []
    let admitted = disk.insert(key, metadata, evicted: &dropped)
    counters.diskEvictions += Int64(dropped.count)
    for (victim, victimMetadata) in dropped {
      forgetOnDisk(victim)
      try backend?.delete(victim, victimMetadata)
    }
    if admitted {
      _ = try backend?.write(key, metadata)
      rememberInDiskMemory(key, metadata)
    } else if let previous, disk.metadata(key) == nil {
      forgetOnDisk(key)
      try backend?.delete(key, previous)
    }
  }

  /// Keeps a copy of a disk object in the disk library's memory cache (its evictions are silent).
  private func rememberInDiskMemory(_ key: UInt64, _ metadata: EntryMetadata) {
    guard let diskMemory else { return }
    diskMemoryEvicted.removeAll(keepingCapacity: true)
    _ = diskMemory.insert(key, metadata, evicted: &diskMemoryEvicted)
  }

  /// Drops the disk library's memory copy of an object that left the disk.
  private func forgetOnDisk(_ key: UInt64) {
    diskMemory?.remove(key)
  }

  private func remove(_ key: UInt64) throws(FileError) {
    memory?.remove(key)
    if let disk, let old = disk.remove(key) {
      forgetOnDisk(key)
      try backend?.delete(key, old)
    }
  }

  // MARK: Events

  private func fireTimers(_ now: Int64) throws(FileError) {
    for (index, timer) in configuration.timers.enumerated() {
      if timerDeadlines[index] == .min { timerDeadlines[index] = now + timer.interval }
      guard now >= timerDeadlines[index] else { continue }
      // The next deadline after `now`, in one step however far trace time jumped.
      timerDeadlines[index] += ((now - timerDeadlines[index]) / timer.interval + 1) * timer.interval
      for action in timer.actions { try run(action, now: now) }
    }
  }

  private func handle(_ event: LifecycleEvent, now: Int64) throws(FileError) {
    if event == .launch {
      // A new process: memory is gone, the disk is found as it was left.
      if let memory, memory.count > 0 { clear(memory) }
      if let diskMemory { for (key, _) in diskMemory.all() { diskMemory.remove(key) } }
      try reloadDisk()
    }
    for action in configuration.events[event] ?? [] { try run(action, now: now) }
  }

  /// Rebuilds the disk tier from the file store (launch); no-op for the simulated disk.
  private func reloadDisk() throws(FileError) {
    guard case .file = configuration.diskBackend, let backend, let tierConfiguration = configuration.disk else {
      return
    }
    let found = try backend.recover().sorted { $0.metadata.accessedAt < $1.metadata.accessedAt }
    disk = try? Tier(tierConfiguration, seed: seed)
    var dropped: [(key: UInt64, metadata: EntryMetadata)] = []
    for (key, metadata) in found { _ = disk?.insert(key, metadata, evicted: &dropped) }
    for (key, metadata) in dropped { try backend.delete(key, metadata) }
  }

  private func clear(_ tier: Tier) {
    counters.purged += Int64(tier.count)
    for (key, _) in tier.all() { tier.remove(key) }
  }

  private func run(_ action: EngineAction, now: Int64) throws(FileError) {
    switch action {
    case .clearMemory:
      guard let memory else { return }
      counters.purges += 1
      clear(memory)
    case .trimMemory(let fraction):
      guard let memory, memory.configuration.capacity != .max else { return }
      counters.purges += 1
      let target = Int64(Double(memory.configuration.capacity) * fraction)
      while memory.occupied > target, memory.count > 0 {
        evicted.removeAll(keepingCapacity: true)
        memory.evict(&evicted)
        guard !evicted.isEmpty else { break }
        counters.purged += Int64(evicted.count)
      }
    case .flushMemoryToDisk:
      guard let memory else { return }
      counters.purges += 1
      let all = memory.all()
      for (key, metadata) in all {
        memory.remove(key)
        try putOnDisk(key, metadata)
      }
      counters.purged += Int64(all.count)
    case .removeExpiredMemory:
      guard let memory else { return }
      for (key, metadata) in memory.all()
      where memory.configuration.expiry.freshness(of: metadata, now: now) == .expired {
        memory.remove(key)
        counters.purged += 1
      }
    case .diskCleanup(let rule):
      try cleanDisk(rule, now: now)
    }
  }

  private func date(_ metadata: EntryMetadata, _ kind: DateKind) -> Int64 {
    switch kind {
    case .access: return metadata.accessedAt
    case .modification: return metadata.modifiedAt
    case .creation: return metadata.createdAt
    case .change: return max(metadata.modifiedAt, metadata.accessedAt)
    }
  }

  /// Drops expired and old files, then trims by oldest date to the target if over the limit.
  private func cleanDisk(_ rule: DiskCleanup, now: Int64) throws(FileError) {
    guard let disk else { return }
    if rule.minimumInterval > 0, lastCleanup != .min, now - lastCleanup < rule.minimumInterval { return }
    lastCleanup = now
    counters.purges += 1
    var kept: [(key: UInt64, metadata: EntryMetadata)] = []
    for (key, metadata) in disk.all() {
      let tooOld = rule.maxAge.map { date(metadata, rule.dateKind) <= now - $0 } ?? false
      let expired = rule.removeExpired && metadata.expiresAt <= now
      if tooOld || expired {
        try drop(key, metadata, from: disk)
      } else {
        kept.append((key, metadata))
      }
    }
    guard rule.sizeLimit > 0 else { return }
    var size = kept.reduce(Int64(0)) { $0 + disk.units(of: $1.metadata) }
    guard rule.trimAtLimit ? size >= rule.sizeLimit : size > rule.sizeLimit else { return }
    let target = Int64(Double(rule.sizeLimit) * rule.target)
    kept.sort { date($0.metadata, rule.dateKind) < date($1.metadata, rule.dateKind) }
    for (key, metadata) in kept {
      if rule.stopStrictlyBelow ? size < target : size <= target { break }
      size -= disk.units(of: metadata)
      try drop(key, metadata, from: disk)
    }
  }

  private func drop(_ key: UInt64, _ metadata: EntryMetadata, from disk: Tier) throws(FileError) {
    disk.remove(key)
    forgetOnDisk(key)
    try backend?.delete(key, metadata)
    counters.purged += 1
  }

  /// Reads every object of the disk tier back through the backend (full read, length and
  /// checksum checks). Returns how many objects were read and how many could not be.
  public func verifyDisk() throws(EngineError) -> (objects: Int, unreadable: Int) {
    guard let disk, let backend else { return (0, 0) }
    var unreadable = 0
    let all = disk.all()
    do throws(FileError) {
      for (key, metadata) in all where try backend.read(key, metadata) == nil { unreadable += 1 }
    } catch {
      throw .file(error)
    }
    return (all.count, unreadable)
  }

  /// The file name the file backend gives `key`: the MD5 hex digest of its decimal id.
  public static func diskFileName(for key: UInt64) -> String { FileStore.fileName(key) }

  /// Checks every tier's policy and metadata.
  public func checkInvariants() throws(InvariantViolation) {
    try memory?.checkInvariants()
    try disk?.checkInvariants()
  }
}

/// Why an engine could not be built or could not go on.
public enum EngineError: Error, CustomStringConvertible {
  case configuration(ConfigurationError)
  case file(FileError)

  public var description: String {
    switch self {
    case .configuration(let error): return error.description
    case .file(let error): return error.description
    }
  }
}
