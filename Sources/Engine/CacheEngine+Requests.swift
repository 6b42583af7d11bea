import CacheCore

/// Routing: a request goes to memory, then disk, then the origin (or bypasses the cache), and what it costs.
extension CacheEngine {
  /// Handles one trace row. Tiers see the key the library files it under
  /// (``LibraryRules/cacheKey(_:_:)``); the origin keeps the trace key.
  public func process(_ request: Request, _ attributes: RequestAttributes) throws(EngineError) {
    if throughPolicyLoop {
      try processThroughPolicyLoop(request, attributes)
      return
    }
    if isPolicyRun {
      processAsPolicyRun(request, attributes)
      return
    }
    do throws(FileError) {
      if hasTimers { try fireTimers(request.time) }
      var filed = request
      if !genericRules { filed.key = configuration.rules.cacheKey(request.key, attributes) }
      switch request.operation {
      case .get:
        let version = origin.version(request.key, recorded: attributes.version)
        let stated = attributes.observed == .upstreamHit || attributes.observed == .upstreamMiss
        let answeredBefore = stated ? answeredWithoutFetch : 0
        if genericRules || configuration.rules.usesCache(attributes) {
          let storing =
            try keyTable.map { (table) throws(FileError) in try lookUpKey(filed.key, in: table, now: request.time) }
            ?? true
          try get(filed, attributes, version: version, storing: storing)
        } else {
          try bypass(filed, attributes, version: version)
        }
        if stated { compare(request, observed: attributes.observed, answeredBefore: answeredBefore) }
      case .put:
        guard genericRules || configuration.rules.usesCache(attributes) else { return }
        try store(
          filed, attributes, version: origin.version(request.key, recorded: attributes.version), now: request.time,
          roundTrip: 0)
      case .delete: try remove(filed.key)
      case .origin: origin.update(request.key, recorded: attributes.version)
      case .event: try handle(attributes.event, now: request.time)
      }
    } catch {
      throw .file(error)
    }
  }

  /// A request the library sends past its cache: counted, fetched, never stored.
  func bypass(_ request: Request, _ current: RequestAttributes, version: Int64) throws(FileError) {
    counters.requests += 1
    counters.requestBytes += request.size
    counters.bypassed += 1
    var latency: Int64 = 0
    defer { latencies.record(latency, .origin) }
    try fetch(request, current, version: version, now: request.time, latency: &latency, storing: false)
  }

  func roundTrip(_ attributes: RequestAttributes) -> Int64 {
    configuration.latency.roundTrip(traceLatency: attributes.latency)
  }

  func transfer(_ bytes: Int64) -> Int64 {
    configuration.latency.origin.transfer(bytes)
  }

  /// A `get`: memory, then disk, then the origin, whose current version of the object is
  /// `version`; a response the origin sends is stored only when `storing`.
  /// A fresh memory hit and a miss to the origin stay here; stale memory copies and the disk
  /// are handled out of line.
  func get(_ request: Request, _ current: RequestAttributes, version: Int64, storing: Bool = true) throws(FileError) {
    let now = request.time
    counters.requests += 1
    counters.requestBytes += request.size
    var latency: Int64 = 0
    let before = (memory: counters.memoryHits, disk: counters.diskHits, revalidated: revalidations)
    defer { latencies.record(latency, answer(since: before)) }

    if let location = memory.locate(request.key) {
      // A fresh hit updates the metadata in place; the other cases revalidate from a copy.
      let freshness = memory.freshness(at: location, now: now)
      if freshness == .fresh {
        latency += configuration.latency.memory.cost(request.size)
        try serveFromMemory(request, version: version, at: location, now: now)
        return
      }
      if try serveStaleFromMemory(request, current, version: version, at: location, freshness, latency: &latency) {
        return
      }
    }
    if hasDisk, try serveFromDisk(request, current, version: version, latency: &latency) { return }
    try fetch(request, current, version: version, now: now, latency: &latency, storing: storing)
  }

  /// Revalidations so far (304 and 200).
  @inline(__always) var revalidations: Int64 { counters.revalidated304 &+ counters.revalidated200 }

  /// What answered the request during which the hit and revalidation counters left `before`:
  /// a hit (memory or disk) over a background revalidation, a revalidation over the origin.
  @inline(__always)
  func answer(since before: (memory: Int64, disk: Int64, revalidated: Int64)) -> TierLatencies.Answer {
    if counters.memoryHits != before.memory { return .memory }
    if counters.diskHits != before.disk { return .disk }
    return revalidations != before.revalidated ? .revalidation : .origin
  }

  /// A memory copy that is not fresh: served while revalidating, revalidated, or dropped
  /// (expired; then false: the request goes on to the disk and the origin).
  @inline(never)
  func serveStaleFromMemory(
    _ request: Request, _ current: RequestAttributes, version: Int64, at location: Tier.Location,
    _ freshness: Freshness, latency: inout Int64
  ) throws(FileError) -> Bool {
    let now = request.time
    switch freshness {
    case .fresh:
      latency += configuration.latency.memory.cost(request.size)
      try serveFromMemory(request, version: version, at: location, now: now)
      return true
    case .serveThenRevalidate:
      let stored = memory[location]
      latency += configuration.latency.memory.cost(request.size)
      counters.servedWhileRevalidating += 1
      try serveFromMemory(request, version: version, at: location, now: now)
      try revalidate(
        request, stored, current, version: version, inDisk: false, now: now, background: true, latency: &latency)
      return true
    case .mustRevalidate:
      counters.expired += 1
      try revalidate(
        request, memory[location], current, version: version, inDisk: false, now: now, background: false,
        latency: &latency)
      return true
    case .expired:
      counters.expired += 1
      if memory.configuration.expiry.rule.removesExpiredAtLookup { memory.remove(request.key) }
      return false
    }
  }

  /// The disk's answer to a memory miss: true when it served (or revalidated) the request,
  /// false when the request goes on to the origin (not on disk, or expired there).
  @inline(never)
  func serveFromDisk(
    _ request: Request, _ current: RequestAttributes, version: Int64, latency: inout Int64
  ) throws(FileError) -> Bool {
    let now = request.time
    guard let location = disk.locate(request.key) else { return false }
    if !hasDiskMemory, disk.freshness(at: location, now: now) == .fresh {
      try serveFreshFromDisk(request, current, version: version, at: location, latency: &latency)
      return true
    }
    let stored = disk[location]
    let freshness = disk.freshness(of: stored, now: now)
    if freshness == .fresh || freshness == .serveThenRevalidate {
      let inDiskMemory = diskMemory.locate(request.key) != nil
      let readCost =
        inDiskMemory
        ? configuration.latency.memory.cost(stored.size)
        : try backend?.read(request.key, size: stored.size, contentClass: stored.contentClass)
      guard let readCost else {
        try refetchUnreadable(request, current, version: version, latency: &latency)
        return true
      }
      if inDiskMemory { diskMemory.touch(request.key) } else { rememberInDiskMemory(request.key, stored) }
      latency += readCost
      if freshness == .serveThenRevalidate { counters.servedWhileRevalidating += 1 }
      try serve(request, stored, current, version: version, from: disk, at: location, now: now)
      if freshness == .serveThenRevalidate {
        try revalidate(
          request, stored, current, version: version, inDisk: true, now: now, background: true, latency: &latency)
      }
      return true
    }
    counters.expired += 1
    if freshness == .mustRevalidate {
      try revalidate(
        request, stored, current, version: version, inDisk: true, now: now, background: false, latency: &latency)
      return true
    }
    if disk.configuration.expiry.rule.removesExpiredAtLookup, let old = disk.take(request.key) {
      forgetOnDisk(request.key)
      try backend?.delete(request.key, old)
    }
    return false
  }

  /// Answers from `tier` (memory or disk), where `stored` is at `location` (nil: no longer held): counts the hit,
  /// updates dates and recency, promotes disk hits.
  func serve(
    _ request: Request, _ stored: EntryMetadata, _ current: RequestAttributes, version: Int64, from tier: Tier,
    at location: Tier.Location?, now: Int64
  ) throws(FileError) {
    let fromDisk = tier === disk
    if !fromDisk, let location {
      try serveFromMemory(request, version: version, at: location, now: now)
      return
    }
    countHit(request, fromDisk: fromDisk, stored: (stored.version, stored.bodyLost), current: version)
    var updated = stored
    updated.accessCount &+= 1
    if !fromDisk || tier.configuration.readsUpdateAccessDate {
      updated.accessedAt = now
      tier.touchExpiry(&updated, now: now)
    }
    if let location {
      tier[location] = updated
      tier.touch(location)
      if fromDisk { try settleDiskEvictions() } else { try settleMemoryEvictions() }
    }
    if fromDisk {
      if updated != stored { try backend?.updateDates(request.key, updated) }
      try promote(request.key, updated, now: now)
    } else {
      try touchDiskCopy(request.key, now: now)
    }
  }

  /// Answers a fresh disk object at `location` (no disk library memory cache in front of
  /// it): the read, the hit, the dates updated in place, the promotion. One copy of the
  /// metadata (what the backend and the promotion are given) instead of the general path's
  /// four; the same steps as ``serve(_:_:_:version:from:at:now:)`` from the disk.
  @inline(never)
  func serveFreshFromDisk(
    _ request: Request, _ current: RequestAttributes, version: Int64, at location: Tier.Location,
    latency: inout Int64
  ) throws(FileError) {
    let now = request.time
    let stored = disk.pointer(to: location)
    let read = try backend?.read(request.key, size: stored.pointee.size, contentClass: stored.pointee.contentClass)
    guard let readCost = read else {
      try refetchUnreadable(request, current, version: version, latency: &latency)
      return
    }
    latency += readCost
    countHit(request, fromDisk: true, stored: (stored.pointee.version, stored.pointee.bodyLost), current: version)
    let updated = disk.recordAccess(at: location, now: now, datesAccess: disk.configuration.readsUpdateAccessDate)
      .pointee
    disk.touch(location)
    try settleDiskEvictions()
    try backend?.updateDates(request.key, updated)
    try promote(request.key, updated, now: now)
  }

  /// A disk object whose file could not be read: forgotten, and fetched from the origin.
  func refetchUnreadable(
    _ request: Request, _ current: RequestAttributes, version: Int64, latency: inout Int64
  ) throws(FileError) {
    disk.remove(request.key)
    forgetOnDisk(request.key)
    try fetch(request, current, version: version, now: request.time, latency: &latency)
  }

  /// Answers from the memory tier, whose object is at `location`: counts the hit and updates
  /// the stored metadata in place (no copy), and the disk copy's date where the library does.
  @inline(__always)
  func serveFromMemory(_ request: Request, version: Int64, at location: Tier.Location, now: Int64) throws(FileError) {
    let stored = memory.recordHit(at: location, now: now)
    countHit(request, fromDisk: false, stored: stored, current: version)
    if memory.evicted.count > 0 { try settleMemoryEvictions() }
    try touchDiskCopy(request.key, now: now)
  }

  /// Counts a hit from memory or disk on a stored copy of `stored.version` (and whether its
  /// body was lost) when the origin holds `current`: hits, hit bytes, stale and lost bodies.
  @inline(__always)
  func countHit(_ request: Request, fromDisk: Bool, stored: (version: Int64, bodyLost: Bool), current: Int64) {
    if fromDisk { counters.diskHits += 1 } else { counters.memoryHits += 1 }
    counters.hitBytes += request.size
    if stored.version >= 0, current >= 0, stored.version < current { counters.staleServed += 1 }
    if stored.bodyLost { counters.lostBodyServed += 1 }
  }

  /// A memory hit also dates the disk copy where the library does (``EngineConfiguration/memoryHitTouchesDisk``).
  @inline(__always)
  func touchDiskCopy(_ key: UInt64, now: Int64) throws(FileError) {
    if configuration.memoryHitTouchesDisk { try touchDiskCopyNow(key, now: now) }
  }

  @inline(never)
  func touchDiskCopyNow(_ key: UInt64, now: Int64) throws(FileError) {
    guard var copy = disk.metadata(key) else { return }
    copy.accessedAt = now
    disk.update(key, copy)
    disk.touch(key)
    try settleDiskEvictions()
    try backend?.updateDates(key, copy)
  }

  func promote(_ key: UInt64, _ stored: EntryMetadata, now: Int64) throws(FileError) {
    guard hasMemory else { return }
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
      memory.prepare(&copy, attributes: attributes, now: now)
      try putInMemory(key, copy)
    }
  }

  /// A full request to the origin; stores the response if it succeeded.
  @inline(__always)
  func fetch(
    _ request: Request, _ current: RequestAttributes, version: Int64, now: Int64, latency: inout Int64,
    storing: Bool = true
  ) throws(FileError) {
    let roundTrip = roundTrip(current)
    latency += roundTrip
    guard !current.originFailed || (current.status != 0 && configuration.rules.fetchesErrorResponses) else {
      counters.originErrors += 1
      return
    }
    counters.originFetches += 1
    counters.originBytes += request.size + configuration.latency.headerBytes
    latency += transfer(request.size + configuration.latency.headerBytes)
    if storing { try store(request, current, version: version, now: now, roundTrip: roundTrip) }
  }
}
