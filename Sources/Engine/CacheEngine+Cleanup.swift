import CacheCore
import Policies

/// Disk cleanup passes: expired objects first, then by date until under the size target.
extension CacheEngine {
  func date(_ metadata: EntryMetadata, _ kind: DateKind) -> Int64 {
    switch kind {
    case .access: return metadata.accessedAt
    case .modification: return metadata.modifiedAt
    case .creation: return metadata.createdAt
    case .change: return max(metadata.modifiedAt, metadata.accessedAt)
    }
  }

  /// Drops expired and old files, then trims by oldest date to the target if over the limit.
  func cleanDisk(_ rule: DiskCleanup, now: Int64) throws(FileError) {
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

  func drop(_ key: UInt64, _ metadata: EntryMetadata, from disk: Tier) throws(FileError) {
    disk.remove(key)
    forgetOnDisk(key)
    try backend?.delete(key, metadata)
    counters.purged += 1
  }
}
