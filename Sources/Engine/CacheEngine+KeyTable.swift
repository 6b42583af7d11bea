import CacheCore

/// The key table (nginx's keys zone): lookups counted per key, forced expiry when it is full,
/// and the manager pass that trims it; a key that goes takes its stored object with it.
extension CacheEngine {
  /// Counts a lookup of `key` at `now` and returns whether its response may be stored: it is
  /// already stored, or the key has been looked up the rule's minimum number of times. A new
  /// key in a full table first forces out the least recently looked-up one. O(1).
  @inline(__always)
  func lookUpKey(_ key: UInt64, in table: KeyTable, now: Int64) throws(FileError) -> Bool {
    let uses: Int
    let slot = table.find(key)
    if slot >= 0 {
      // Unused for the inactive time, the key (and its object) would have been removed; a new
      // one starts at one use.
      let gone = table.isInactive(slot, now: now)
      if gone { try dropObject(key) }
      uses = table.lookUp(slot, now: now, restart: gone)
    } else {
      if table.isFull {
        table.setWatermark()
        try dropObject(table.removeOldest())
      }
      table.insert(key, now: now)
      uses = 1
    }
    return uses >= table.rule.minimumUses || disk.locate(key) != nil
  }

  /// The manager pass (``EngineAction/trimKeys(sizeLimit:)``): inactive keys first, then the
  /// least recently looked-up keys while the disk is at `sizeLimit` or the count at the watermark.
  func trimKeys(sizeLimit: Int64, now: Int64) throws(FileError) {
    guard let table = keyTable else { return }
    counters.purges += 1
    while let oldest = table.oldest, now - oldest.lastLookup >= table.rule.inactive {
      try dropObject(table.removeOldest())
    }
    while table.count > 0, (sizeLimit > 0 && disk.occupied >= sizeLimit) || table.count >= table.watermark {
      try dropObject(table.removeOldest())
    }
  }

  /// Removes the stored object of `key` from the disk, if there is one.
  func dropObject(_ key: UInt64) throws(FileError) {
    guard hasDisk, let metadata = disk.metadata(key) else { return }
    try drop(key, metadata, from: disk)
  }
}
