import CacheCore
import Policies

/// One tier of an engine: a registered eviction policy plus the metadata of every object it
/// holds, kept in step (every insertion, eviction and removal updates both).
final class Tier {
  let configuration: TierConfiguration
  private let simulation: any CacheSimulation
  private var entries = SlotArena<EntryMetadata>(initialCapacity: 1024)
  /// Objects held outside the policy and its capacity (MKNetworkKit's untracked promotion).
  private var untracked = SlotArena<EntryMetadata>(initialCapacity: 16)
  private var scratch: [Victim] = []

  init(_ configuration: TierConfiguration, seed: UInt64) throws(ConfigurationError) {
    self.configuration = configuration
    simulation = try configuration.policy.entry.makeSimulation(
      capacity: configuration.capacity, parameters: configuration.policy.parameters,
      context: PolicyContext(seed: seed, objectMode: configuration.unit == .count))
    scratch.reserveCapacity(64)
  }

  /// Units the tier holds (bytes, objects or cost), untracked objects excluded.
  var occupied: Int64 { simulation.occupiedBytes }
  /// Objects held, untracked ones included.
  var count: Int { entries.count + untracked.count }

  /// How much of the tier's capacity an object takes.
  func units(of metadata: EntryMetadata) -> Int64 {
    switch configuration.unit {
    case .count: return 1
    case .cost: return metadata.cost
    case .bytes:
      let block = configuration.blockSize
      return block > 0 ? (metadata.size + block - 1) / block * block : metadata.size
    }
  }

  /// The metadata of `key`, if held (tracked or untracked).
  func metadata(_ key: UInt64) -> EntryMetadata? {
    let slot = entries.find(key)
    if slot >= 0 { return entries[slot].extra }
    let loose = untracked.find(key)
    return loose >= 0 ? untracked[loose].extra : nil
  }

  /// Replaces the metadata of a held object.
  func update(_ key: UInt64, _ body: (inout EntryMetadata) -> Void) {
    let slot = entries.find(key)
    if slot >= 0 {
      body(&entries[slot].extra)
      return
    }
    let loose = untracked.find(key)
    if loose >= 0 { body(&untracked[loose].extra) }
  }

  /// Records a hit with the policy (untracked objects have none).
  func touch(_ key: UInt64) {
    let slot = entries.find(key)
    guard slot >= 0 else { return }
    _ = simulation.serve(Request(key: key, size: units(of: entries[slot].extra)), victims: &scratch)
  }

  /// Stores `metadata` under `key`, replacing a held copy as the policy's
  /// ``EvictionPolicy/store(_:victims:)`` does (in place or as new). Returns whether the new
  /// copy is held afterwards (a refused store may leave the old copy) and appends every object
  /// evicted, possibly the new one itself.
  func insert(_ key: UInt64, _ metadata: EntryMetadata, evicted: inout [(key: UInt64, metadata: EntryMetadata)]) -> Bool
  {
    let size = units(of: metadata)
    if let limit = configuration.admissionLimit, Double(size) >= limit * Double(configuration.capacity) {
      remove(key)
      return false
    }
    let loose = untracked.find(key)
    if loose >= 0 { untracked.remove(loose) }
    let outcome = simulation.store(Request(key: key, size: size), victims: &scratch)
    if outcome == .rejected, entries.find(key) >= 0, simulation.contains(key) {
      // The policy refused the store and kept the current entry (URLCache at cost ≥ capacity).
      return false
    }
    var keyEvicted = false
    for victim in scratch {
      if victim.key == key {
        keyEvicted = true
        continue
      }
      let slot = entries.find(victim.key)
      guard slot >= 0 else { continue }
      evicted.append((victim.key, entries[slot].extra))
      entries.remove(slot)
    }
    let held = simulation.contains(key)
    let slot = entries.find(key)
    if keyEvicted {
      // Either the old copy left before the new one was stored, or the new one itself left.
      evicted.append((key, held && slot >= 0 ? entries[slot].extra : metadata))
    }
    if held, slot >= 0 {
      entries[slot].extra = metadata
      entries[slot].size = size
    } else if held {
      _ = entries.insert(key: key, size: size, extra: metadata)
    } else if slot >= 0 {
      entries.remove(slot)
    }
    return held
  }

  /// Keeps `metadata` in memory outside the policy (untracked promotion).
  func insertUntracked(_ key: UInt64, _ metadata: EntryMetadata) {
    guard entries.find(key) < 0, untracked.find(key) < 0 else { return }
    _ = untracked.insert(key: key, size: metadata.size, extra: metadata)
  }

  /// Removes `key`; returns its metadata if it was held.
  @discardableResult
  func remove(_ key: UInt64) -> EntryMetadata? {
    let slot = entries.find(key)
    if slot >= 0 {
      let metadata = entries[slot].extra
      entries.remove(slot)
      _ = simulation.remove(key)
      return metadata
    }
    let loose = untracked.find(key)
    guard loose >= 0 else { return nil }
    let metadata = untracked[loose].extra
    untracked.remove(loose)
    return metadata
  }

  /// Evicts by the policy's rule (at least one object); appends what left.
  func evict(_ evicted: inout [(key: UInt64, metadata: EntryMetadata)]) {
    simulation.evict(victims: &scratch)
    for victim in scratch {
      let slot = entries.find(victim.key)
      guard slot >= 0 else { continue }
      evicted.append((victim.key, entries[slot].extra))
      entries.remove(slot)
    }
  }

  /// Every held object (untracked first, then tracked), in slot order.
  func all() -> [(key: UInt64, metadata: EntryMetadata)] {
    var result: [(key: UInt64, metadata: EntryMetadata)] = []
    result.reserveCapacity(count)
    untracked.forEachLiveSlot { slot in result.append((untracked[slot].key, untracked[slot].extra)) }
    entries.forEachLiveSlot { slot in result.append((entries[slot].key, entries[slot].extra)) }
    return result
  }

  /// Checks the policy and that it holds exactly the objects with metadata.
  func checkInvariants() throws(InvariantViolation) {
    try simulation.checkInvariants()
    try entries.checkIndex()
    try untracked.checkIndex()
    guard simulation.objectCount == entries.count else {
      throw InvariantViolation("policy holds \(simulation.objectCount) objects, metadata \(entries.count)")
    }
    var missing = false
    entries.forEachLiveSlot { slot in if !simulation.contains(entries[slot].key) { missing = true } }
    guard !missing else { throw InvariantViolation("an object with metadata is not in the policy") }
  }
}
