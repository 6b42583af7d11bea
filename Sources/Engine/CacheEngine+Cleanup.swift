import CacheCore

/// Disk cleanup passes: expired objects first, then by date until under the size target.
extension CacheEngine {
  /// The date of `kind` of the metadata at `metadata`, read in place.
  func date(_ metadata: UnsafePointer<EntryMetadata>, _ kind: DateKind) -> Int64 {
    switch kind {
    case .access: return metadata.pointee.accessedAt
    case .modification: return metadata.pointee.modifiedAt
    case .creation: return metadata.pointee.createdAt
    case .change: return max(metadata.pointee.modifiedAt, metadata.pointee.accessedAt)
    }
  }

  /// Drops expired and old files, then trims by oldest date to the target if over the limit.
  /// Walks the tier in place (no metadata copied); only the kept objects' keys, dates and
  /// sizes are gathered.
  func cleanDisk(_ rule: DiskCleanup, now: Int64) throws(FileError) {
    guard hasDisk else { return }
    if rule.minimumInterval > 0, lastCleanup != .min, now - lastCleanup < rule.minimumInterval { return }
    lastCleanup = now
    counters.purges += 1
    var kept = cleanupScratch
    cleanupScratch = []
    kept.removeAll(keepingCapacity: true)
    defer { cleanupScratch = kept }
    let trims = rule.sizeLimit > 0
    try disk.forEachObject { (key, metadata) throws(FileError) in
      let tooOld = rule.maxAge.map { date(metadata, rule.dateKind) <= now - $0 } ?? false
      let expired = rule.removeExpired && metadata.pointee.expiresAt <= now
      if tooOld || expired {
        // Only the current object's slot is freed: the walk goes on over the others.
        try drop(key, metadata.pointee, from: disk)
      } else if trims {
        let units = disk.units(size: metadata.pointee.size, cost: metadata.pointee.cost)
        kept.append(CleanupCandidate(key: key, date: date(metadata, rule.dateKind), units: units))
      }
    }
    guard trims else { return }
    var size = kept.reduce(Int64(0)) { $0 + $1.units }
    guard rule.trimAtLimit ? size >= rule.sizeLimit : size > rule.sizeLimit else { return }
    let target = Int64(Double(rule.sizeLimit) * rule.target)
    kept.sort { $0.date < $1.date }
    for candidate in kept {
      if rule.stopStrictlyBelow ? size < target : size <= target { break }
      size -= candidate.units
      guard let metadata = disk.metadata(candidate.key) else { continue }
      try drop(candidate.key, metadata, from: disk)
    }
  }

  func drop(_ key: UInt64, _ metadata: EntryMetadata, from disk: Tier) throws(FileError) {
    disk.remove(key)
    forgetOnDisk(key)
    try backend?.delete(key, metadata)
    counters.purged += 1
  }
}

/// An object a disk cleanup kept in its first pass: what the trim by date needs.
struct CleanupCandidate {
  let key: UInt64
  let date: Int64
  let units: Int64
}
