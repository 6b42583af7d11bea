import CacheCore

/// Write rules: storing in memory and on disk (write-through or on eviction), removal.
extension CacheEngine {
  /// Stores a response (the origin's `version` of the object) in the tiers the write rules choose.
  @inline(__always)
  func store(
    _ request: Request, _ attributes: RequestAttributes, version: Int64, now: Int64, roundTrip: Int64,
    bodyLost: Bool = false
  ) throws(FileError) {
    let status = attributes.status == 0 ? 200 : attributes.status
    let storable =
      bodyLost || (genericRules ? GenericRules().storesStatus(status) : configuration.rules.storesStatus(status))
    let cost = genericRules ? attributes.cost(for: request) : configuration.rules.cost(request, attributes)
    let writesDisk = hasDisk && (configuration.writePolicy == .writeThrough || !hasMemory)
    if hasMemory, storable, memory.allowsStoring(attributes, now: now) || bodyLost {
      // Built in place in the memory tier's storage: no copy of the metadata.
      _ = memory.insertResponse(request.key, size: request.size, cost: cost, attributes: attributes, now: now) {
        $0 = Self.response(
          request, attributes, cost: cost, version: version, now: now, roundTrip: roundTrip, bodyLost: bodyLost)
      }
      try settleMemoryEvictions()
    } else if hasMemory {
      memory.remove(request.key)
    }
    guard writesDisk else { return }
    if storable, disk.allowsStoring(attributes, now: now) || bodyLost {
      try storeOnDisk(
        request, attributes, cost: cost, version: version, now: now, roundTrip: roundTrip, bodyLost: bodyLost)
    } else if let old = disk.take(request.key) {
      forgetOnDisk(request.key)
      try backend?.delete(request.key, old)
    }
  }

  /// The disk's copy of a response ``store(_:_:version:now:roundTrip:bodyLost:)`` keeps,
  /// built here and stored with no copy on the way (``putOnDisk(_:_:)`` inlined).
  @inline(never)
  func storeOnDisk(
    _ request: Request, _ attributes: RequestAttributes, cost: Int64, version: Int64, now: Int64, roundTrip: Int64,
    bodyLost: Bool
  ) throws(FileError) {
    var metadata = Self.response(
      request, attributes, cost: cost, version: version, now: now, roundTrip: roundTrip, bodyLost: bodyLost)
    disk.prepare(&metadata, attributes: attributes, now: now)
    try putOnDisk(request.key, metadata)
  }

  /// The metadata a stored response starts with, before a tier sets its expiry: the origin's
  /// `version`, received at `now` after `roundTrip`.
  @inline(__always)
  static func response(
    _ request: Request, _ attributes: RequestAttributes, cost: Int64, version: Int64, now: Int64, roundTrip: Int64,
    bodyLost: Bool
  ) -> EntryMetadata {
    var metadata = EntryMetadata(request: request, attributes: attributes, cost: cost, now: now, latency: roundTrip)
    metadata.bodyLost = bodyLost
    metadata.version = version
    return metadata
  }

  func putInMemory(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    guard hasMemory else { return }
    _ = memory.insert(key, metadata)
    try settleMemoryEvictions()
  }

  /// Counts what the memory tier's last operation evicted and spills it to disk where the
  /// write policy does.
  @inline(__always)
  func settleMemoryEvictions() throws(FileError) {
    counters.memoryEvictions += Int64(memory.evicted.count)
    if memory.evicted.collects { try spillMemoryEvictions() }
  }

  /// Spills what the memory tier's last operation evicted to disk.
  @inline(never)
  func spillMemoryEvictions() throws(FileError) {
    guard !memory.evicted.items.isEmpty else { return }
    let spilled = memory.evicted.items
    for (victim, victimMetadata) in spilled { try putOnDisk(victim, victimMetadata) }
  }

  /// Counts what the disk tier's last operation evicted, forgets it and deletes its files.
  func settleDiskEvictions() throws(FileError) {
    counters.diskEvictions += Int64(disk.evicted.count)
    for (victim, victimMetadata) in disk.evicted.items {
      forgetOnDisk(victim)
      try backend?.delete(victim, victimMetadata)
    }
  }

  @inline(__always)
  func putOnDisk(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    guard hasDisk else { return }
    // The copy it replaces, kept in case the policy refuses the new one. Spelled as a
    // lookup and a read rather than `disk.metadata(key)`, which measured one more 197-byte
    // copy per disk write (gdb count of `memmove` calls).
    let previous = disk.locate(key).map { disk[$0] }
    let admitted = disk.insert(key, metadata)
    try settleDiskEvictions()
    if admitted {
      if let cost = try backend?.write(key, metadata) { latencies.recordDiskWrite(cost) }
      if hasDiskMemory { rememberInDiskMemory(key, metadata) }
    } else if let previous, disk.metadata(key) == nil {
      forgetOnDisk(key)
      try backend?.delete(key, previous)
    }
  }

  /// Keeps a copy of a disk object in the disk library's memory cache (its evictions are silent).
  func rememberInDiskMemory(_ key: UInt64, _ metadata: EntryMetadata) {
    guard hasDiskMemory else { return }
    _ = diskMemory.insert(key, metadata)
  }

  /// Drops the disk library's memory copy of an object that left the disk.
  func forgetOnDisk(_ key: UInt64) {
    diskMemory.remove(key)
  }

  func remove(_ key: UInt64) throws(FileError) {
    memory.remove(key)
    if let old = disk.take(key) {
      forgetOnDisk(key)
      try backend?.delete(key, old)
    }
  }

  // MARK: Events
}
