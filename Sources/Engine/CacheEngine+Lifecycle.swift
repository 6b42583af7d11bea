import CacheCore

/// Lifecycle: timers and app events and the actions they run (purges, flushes, reloading the disk).
extension CacheEngine {
  func fireTimers(_ now: Int64) throws(FileError) {
    for (index, timer) in configuration.timers.enumerated() {
      if timerDeadlines[index] == .min { timerDeadlines[index] = now + (timer.firstAfter ?? timer.interval) }
      guard now >= timerDeadlines[index] else { continue }
      // The next deadline after `now`, in one step however far trace time jumped.
      timerDeadlines[index] += ((now - timerDeadlines[index]) / timer.interval + 1) * timer.interval
      for action in timer.actions { try run(action, now: now) }
    }
  }

  func handle(_ event: LifecycleEvent, now: Int64) throws(FileError) {
    if event == .launch {
      // A new process: memory is gone (a purge, counted as one), the disk is found as it was left.
      if memory.count > 0 {
        counters.purges += 1
        clear(memory)
      }
      for key in diskMemory.keys() { diskMemory.remove(key) }
      try reloadDisk()
    }
    for action in configuration.events[event] ?? [] { try run(action, now: now) }
  }

  /// Rebuilds the disk tier from the file store (launch); no-op for the simulated disk.
  func reloadDisk() throws(FileError) {
    guard case .file = configuration.diskBackend, let backend, hasDisk else { return }
    let found = try backend.recover().sorted { $0.metadata.accessedAt < $1.metadata.accessedAt }
    disk.reset()
    for (key, metadata) in found {
      _ = disk.insert(key, metadata)
      for (victim, victimMetadata) in disk.evicted.items { try backend.delete(victim, victimMetadata) }
    }
  }

  func clear(_ tier: Tier) {
    counters.purged += Int64(tier.count)
    for key in tier.keys() { tier.remove(key) }
  }

  func run(_ action: EngineAction, now: Int64) throws(FileError) {
    switch action {
    case .clearMemory:
      guard hasMemory else { return }
      counters.purges += 1
      clear(memory)
    case .trimMemory(let fraction):
      guard hasMemory, memory.configuration.capacity != .max else { return }
      counters.purges += 1
      let target = Int64(Double(memory.configuration.capacity) * fraction)
      while memory.occupied > target, memory.count > 0 {
        memory.evict()
        guard memory.evicted.count > 0 else { break }
        counters.purged += Int64(memory.evicted.count)
      }
    case .flushMemoryToDisk:
      guard hasMemory else { return }
      counters.purges += 1
      let all = memory.all()
      for (key, metadata) in all {
        memory.remove(key)
        try putOnDisk(key, metadata)
      }
      counters.purged += Int64(all.count)
    case .removeExpiredMemory:
      guard hasMemory else { return }
      for key in memory.keys(where: { memory.freshness(at: $0, now: now) == .expired }) {
        memory.remove(key)
        counters.purged += 1
      }
    case .diskCleanup(let rule):
      try cleanDisk(rule, now: now)
    case .trimKeys(let sizeLimit):
      try trimKeys(sizeLimit: sizeLimit, now: now)
    }
  }
}
