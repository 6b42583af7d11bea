import CacheCore

/// One tier of an engine: a registered eviction policy plus the metadata of every object it
/// holds, kept in step (every insertion, eviction and removal updates both).
///
/// When the policy's slots are stable (``PolicyLoopHooks/slotsAreStable``) the metadata sits
/// in a buffer indexed by the policy's own slots: a lookup is the policy's one hash lookup and
/// an evicted object's metadata is found by the slot its victim carries. Otherwise the tier
/// keeps a compact index of its own beside the policy.
final class Tier {
  let configuration: TierConfiguration
  /// The policy instance: a constant, so calls on it cost no reference counting
  /// (``reset()`` replaces its state, not the instance).
  let simulation: any CacheSimulation
  private let seed: UInt64
  /// The expiry of a plain policy run's `--ttl` (libCacheSim's), inside the policy's simulation.
  private let timeToLive: TimeToLive?
  /// The tracked objects' metadata, by the policy's slot or by the table's own index.
  @exclusivity(unchecked) private(set) var entries: MetadataTable
  /// Objects held outside the policy and its capacity (MKNetworkKit's untracked promotion).
  @exclusivity(unchecked) private(set) var untracked = MetadataTable(initialCapacity: 1)
  @exclusivity(unchecked) private var scratch: [Victim] = []
  /// The key the last ``locate(_:)`` found absent, while it has not been stored since (only
  /// storing that key can make it present): ``insert(_:_:)`` of it skips its lookups.
  @exclusivity(unchecked) private var knownAbsent: UInt64?
  /// What the last ``insert(_:_:)`` or ``evict()`` removed: always counted, kept (key and
  /// metadata) when the tier was built to collect them.
  @exclusivity(unchecked) private(set) var evicted: EvictedObjects

  /// The tier's objects never expire (`none`): the expiry calls below answer without asking
  /// the rule.
  let expiresNothing: Bool
  /// False for an engine that serves through the policy's loop
  /// (``CacheEngine/throughPolicyLoop``), a plain policy run and a placeholder: only the
  /// policy holds the objects, ``metadata(_:)`` finds none, and ``count`` asks the policy (the
  /// table has no index).
  let keepsMetadata: Bool

  /// A tier of `configuration`; with `collectsEvicted`, ``evicted`` keeps what leaves; without
  /// `keepsMetadata`, the policy alone holds the objects.
  init(
    _ configuration: TierConfiguration, seed: UInt64, collectsEvicted: Bool, keepsMetadata: Bool = true,
    timeToLive: TimeToLive? = nil
  ) throws(ConfigurationError) {
    self.configuration = configuration
    self.keepsMetadata = keepsMetadata
    evicted = EvictedObjects(collects: collectsEvicted)
    expiresNothing = configuration.expiry.rule is NoExpiry
    self.seed = seed
    self.timeToLive = timeToLive
    simulation = try Self.makeSimulation(configuration, seed: seed, timeToLive: timeToLive)
    entries = Self.emptyEntries(keepsMetadata: keepsMetadata, indexed: !simulation.slotsAreStable)
    if keepsMetadata { scratch.reserveCapacity(64) }
  }

  /// An empty tier standing for one the engine's configuration lacks (a FIFO of capacity 0,
  /// whose lookups find nothing): the engine never stores into it, so it stays empty.
  static func placeholder() -> Tier {
    // A registered policy with a fixed specification at capacity 0: cannot fail.
    guard let spec = try? PolicySpec(parsing: "fifo"),
      let tier = try? Tier(
        TierConfiguration(policy: spec, capacity: 0), seed: 0, collectsEvicted: false, keepsMetadata: false)
    else { preconditionFailure("the placeholder tier (fifo at capacity 0) could not be built") }
    return tier
  }

  private static func makeSimulation(
    _ configuration: TierConfiguration, seed: UInt64, timeToLive: TimeToLive?
  ) throws(ConfigurationError) -> any CacheSimulation {
    let context = PolicyContext(seed: seed, objectMode: configuration.unit == .count)
    return try configuration.policy.entry.makeSimulation(
      capacity: configuration.capacity, parameters: configuration.policy.parameters, context: context,
      timeToLive: timeToLive,
      admission: try configuration.policy.admission?.make(capacity: configuration.capacity, context: context))
  }

  /// An empty metadata table: room for 1024 objects, indexed by key when the policy's slots
  /// are not stable; none for a tier that keeps no metadata.
  private static func emptyEntries(keepsMetadata: Bool, indexed: Bool) -> MetadataTable {
    MetadataTable(initialCapacity: keepsMetadata ? 1024 : 0, indexed: keepsMetadata && indexed)
  }

  /// Empties the tier: the policy's state as at creation (built the same way, so it cannot
  /// fail) and no metadata.
  func reset() {
    if let fresh = try? Self.makeSimulation(configuration, seed: seed, timeToLive: timeToLive) {
      simulation.replaceState(with: fresh)
    }
    entries = Self.emptyEntries(keepsMetadata: keepsMetadata, indexed: entries.indexed)
    untracked = MetadataTable(initialCapacity: 1)
    knownAbsent = nil
  }

  /// The slot of tracked `key`, or -1: the policy's lookup when its slots are stable, else
  /// the table's.
  @inline(__always)
  private func trackedSlot(_ key: UInt64) -> Int32 {
    entries.indexed ? entries.find(key) : simulation.slot(of: key)
  }

  /// The slot of an object the policy just evicted (its metadata is still there), or -1.
  @inline(__always)
  private func slot(of victim: Victim) -> Int32 {
    entries.indexed ? entries.find(victim.key) : victim.slot
  }

  /// Units the tier holds (bytes, objects or cost), untracked objects excluded.
  var occupied: Int64 { simulation.occupiedBytes }
  /// Objects held, untracked ones included.
  var count: Int { (entries.indexed ? entries.count : simulation.objectCount) + untracked.count }

  /// How much of the tier's capacity an object takes.
  @inline(__always)
  func units(of metadata: borrowing EntryMetadata) -> Int64 { units(size: metadata.size, cost: metadata.cost) }

  /// How much of the tier's capacity an object of `size` bytes and `cost` takes.
  @inline(__always)
  func units(size: Int64, cost: Int64) -> Int64 {
    switch configuration.unit {
    case .count: return 1
    case .cost: return cost
    case .bytes:
      let block = configuration.blockSize
      return block > 0 ? (size + block - 1) / block * block : size
    }
  }

  /// Where a held object's metadata lives: a slot of the tracked or of the untracked arena.
  /// Valid until the tier next inserts, removes or evicts.
  struct Location {
    let slot: Int32
    let tracked: Bool
  }

  /// Where `key`'s metadata is, or nil: one hash lookup for a tracked object. A key found
  /// absent is remembered, so that storing it next costs no further lookup.
  @inline(__always)
  func locate(_ key: UInt64) -> Location? {
    let slot = trackedSlot(key)
    if slot >= 0 { return Location(slot: slot, tracked: true) }
    let loose = untracked.find(key)
    if loose >= 0 { return Location(slot: loose, tracked: false) }
    knownAbsent = key
    return nil
  }

  /// The metadata at `location`.
  @inline(__always)
  subscript(location: Location) -> EntryMetadata {
    get { location.tracked ? entries[location.slot] : untracked[location.slot] }
    set {
      if location.tracked { entries[location.slot] = newValue } else { untracked[location.slot] = newValue }
    }
  }

  /// The metadata at `location`, to read or update in place (reading `self[location]` copies
  /// it); valid until the tier next inserts, removes or evicts.
  @inline(__always)
  func pointer(to location: Location) -> UnsafeMutablePointer<EntryMetadata> {
    location.tracked ? entries.pointer(to: location.slot) : untracked.pointer(to: location.slot)
  }

  /// Counts an access to the object at `location` in place: its access count, and with
  /// `datesAccess` its access date and sliding expiry. Returns where it is (valid until the
  /// tier next inserts, removes or evicts); the policy is not told. No metadata is copied.
  @inline(__always)
  func recordAccess(at location: Location, now: Int64, datesAccess: Bool = true) -> UnsafeMutablePointer<EntryMetadata>
  {
    let metadata = pointer(to: location)
    metadata.pointee.accessCount &+= 1
    if datesAccess {
      metadata.pointee.accessedAt = now
      touchExpiry(&metadata.pointee, now: now)
    }
    return metadata
  }

  /// ``recordAccess(at:now:datesAccess:)`` of a hit, then tells the policy; returns the stored
  /// version and whether the body was lost.
  @inline(__always)
  func recordHit(at location: Location, now: Int64) -> (version: Int64, bodyLost: Bool) {
    let metadata = recordAccess(at: location, now: now)
    let stored = (version: metadata.pointee.version, bodyLost: metadata.pointee.bodyLost)
    touch(location)
    return stored
  }

  /// The metadata of `key`, if held (tracked or untracked).
  func metadata(_ key: UInt64) -> EntryMetadata? {
    guard keepsMetadata else { return nil }
    return locate(key).map { self[$0] }
  }

  /// Replaces the metadata of a held object.
  func update(_ key: UInt64, _ metadata: EntryMetadata) {
    if let location = locate(key) { self[location] = metadata }
  }

  /// Records a hit with the policy (untracked objects have none): at the policy's slot when
  /// it is stable (no lookup; such a hit evicts nothing), else served as a request, one policy
  /// lookup. ``evicted`` tells what the hit evicted (SLRU's promotion may evict).
  @inline(__always)
  func touch(_ location: Location) {
    evicted.reset()
    guard location.tracked else { return }
    // Two fields read in place: reading `pointee` whole would copy the metadata.
    let metadata = entries.pointer(to: location.slot)
    let request = Request(
      key: entries.key(location.slot), size: units(size: metadata.pointee.size, cost: metadata.pointee.cost))
    if entries.indexed {
      _ = simulation.serve(request, collecting: &scratch)
      _ = releaseVictims(except: nil)
    } else {
      simulation.hit(request, at: location.slot)
    }
  }

  /// ``touch(_:)`` by key.
  func touch(_ key: UInt64) {
    evicted.reset()
    if let location = locate(key) { touch(location) }
  }

  /// Stores `metadata` under `key`, replacing a held copy as the policy's
  /// ``EvictionPolicy/store(_:collecting:)`` does (in place or as new). Returns whether the new
  /// copy is held afterwards (a refused store may leave the old copy); ``evicted`` tells every
  /// object evicted, possibly the new one itself.
  func insert(_ key: UInt64, _ metadata: EntryMetadata) -> Bool {
    switch admitting(key, size: units(of: metadata)) {
    case .refused: return false
    case .missing(let size):
      let (storage, evictedItself) = insertMissing(key, size: size)
      if evictedItself { evicted.record(key, metadata) }
      storage?.pointee = metadata
      return storage != nil
    case .held(let size): return replace(key, metadata, size: size)
    }
  }

  /// Stores a response received at `now` with `attributes`: ``insert(_:_:)`` of an object
  /// of `size` bytes and `cost` whose metadata `build` writes (it assigns the whole value) and
  /// whose expiry the tier then sets (``prepare(_:attributes:now:)``). Written in place in
  /// the tier's storage when the key is not held, the common miss: no metadata is copied.
  @inline(__always)
  func insertResponse(
    _ key: UInt64, size: Int64, cost: Int64, attributes: RequestAttributes, now: Int64,
    building build: (inout EntryMetadata) -> Void
  ) -> Bool {
    switch admitting(key, size: units(size: size, cost: cost)) {
    case .refused: return false
    case .missing(let units):
      let (storage, evictedItself) = insertMissing(key, size: units)
      if let storage, !evictedItself {
        // The usual miss: built where it stays.
        build(&storage.pointee)
        prepare(&storage.pointee, attributes: attributes, now: now)
        return true
      }
      let metadata = built()
      if evictedItself { evicted.record(key, metadata) }
      storage?.pointee = metadata
      return storage != nil
    case .held(let units):
      return replace(key, built(), size: units)
    }

    /// The metadata as a value, for the cases that need one.
    func built() -> EntryMetadata {
      var metadata = EntryMetadata.placeholder
      build(&metadata)
      prepare(&metadata, attributes: attributes, now: now)
      return metadata
    }
  }

  /// How an insertion of `key` taking `size` units goes on.
  enum Admission {
    /// Refused by the admission limit (a held copy was removed).
    case refused
    /// Not held: a miss for the policy.
    case missing(size: Int64)
    /// Held: replaced through the policy's store.
    case held(size: Int64)
  }

  /// The first step of every insertion: resets ``evicted``, applies the admission limit,
  /// and finds whether `key` is held (no lookup when the last lookup found it absent).
  @inline(__always)
  private func admitting(_ key: UInt64, size: Int64) -> Admission {
    evicted.reset()
    let absent = knownAbsent == key
    knownAbsent = nil
    if let limit = configuration.admissionLimit, Double(size) >= limit * Double(configuration.capacity) {
      remove(key)
      return .refused
    }
    if absent { return .missing(size: size) }
    if untracked.count > 0 {
      let loose = untracked.find(key)
      if loose >= 0 { untracked.remove(loose) }
    }
    return trackedSlot(key) < 0 ? .missing(size: size) : .held(size: size)
  }

  /// Replaces held `key`'s copy with `metadata` through the policy's store.
  @inline(never)
  private func replace(_ key: UInt64, _ metadata: EntryMetadata, size: Int64) -> Bool {
    let outcome = simulation.store(Request(key: key, size: size), collecting: &scratch)
    if outcome == .rejected, simulation.contains(key), !entries.indexed || entries.find(key) >= 0 {
      // The policy refused the store and kept the current entry (URLCache at cost ≥ capacity).
      return false
    }
    // The slot of the key's own copy if the policy reported it as a victim (read before the
    // new copy is written, which may take the same slot).
    let evictedCopy = releaseVictims(except: key)
    // `.inserted` means the policy kept the object, unless it reported it as a victim too
    // (then only the policy knows whether the old or the new copy left).
    let held = (outcome == .inserted && evictedCopy == nil) || simulation.contains(key)
    assert(held == simulation.contains(key), "store reported \(outcome) for an object the policy holds: \(!held)")
    if let evictedCopy {
      // Either the old copy left before the new one was stored, or the new one itself left.
      evicted.record(key, held && evictedCopy >= 0 ? entries[evictedCopy] : metadata)
    }
    if entries.indexed {
      let slot = entries.find(key)
      if held, slot >= 0 {
        entries[slot] = metadata
      } else if held {
        entries.insert(key: key, size: size, metadata: metadata)
      } else if slot >= 0 {
        entries.remove(slot)
      }
    } else if held {
      entries.write(key, metadata, at: simulation.slot(of: key))
    }
    return held
  }

  /// The policy's side of inserting `key`, which it does not hold: a miss for the policy,
  /// which reports the new object's slot (no lookup beyond the caller's). Returns where the
  /// new object's metadata goes (nil when the policy did not keep it) and whether the policy
  /// evicted the new object itself (the caller then records it in ``evicted``).
  @inline(__always)
  private func insertMissing(_ key: UInt64, size: Int64) -> (
    storage: UnsafeMutablePointer<EntryMetadata>?, evictedItself: Bool
  ) {
    let (outcome, slot) = simulation.insertMissing(Request(key: key, size: size), collecting: &scratch)
    // The new object itself may be a victim (a policy that inserts, then evicts).
    let evictedItself = releaseVictims(except: key) != nil
    guard (outcome == .inserted && !evictedItself) || simulation.contains(key) else { return (nil, evictedItself) }
    let storage =
      entries.indexed
      ? entries.insert(key: key, size: size)
      : entries.storage(for: key, at: slot >= 0 && !evictedItself ? slot : simulation.slot(of: key))
    return (storage, evictedItself)
  }

  /// Keeps `metadata` in memory outside the policy (untracked promotion).
  func insertUntracked(_ key: UInt64, _ metadata: EntryMetadata) {
    if knownAbsent == key { knownAbsent = nil }
    guard trackedSlot(key) < 0, untracked.find(key) < 0 else { return }
    untracked.insert(key: key, size: metadata.size, metadata: metadata)
  }

  /// Removes `key` and returns its metadata, if it was held (one copy of it).
  func take(_ key: UInt64) -> EntryMetadata? {
    guard let location = locate(key) else { return nil }
    let metadata = self[location]
    remove(key, at: location)
    return metadata
  }

  /// Removes `key` if held, copying nothing (purges drop every memory object this way).
  func remove(_ key: UInt64) {
    if let location = locate(key) { remove(key, at: location) }
  }

  /// Removes `key`, held at `location`, from the policy (if tracked) and the metadata.
  private func remove(_ key: UInt64, at location: Location) {
    if location.tracked {
      entries.remove(location.slot)
      _ = simulation.remove(key)
    } else {
      untracked.remove(location.slot)
    }
  }

  /// Evicts by the policy's rule (at least one object); ``evicted`` tells what left.
  func evict() {
    evicted.reset()
    simulation.evict(collecting: &scratch)
    _ = releaseVictims(except: nil)
  }

  /// Records in ``evicted`` and forgets the metadata of every victim of the last policy call
  /// (in `scratch`) except `key`'s own copy, whose slot it returns (nil: `key` was not a
  /// victim; -1: its copy had no metadata).
  @inline(__always)
  private func releaseVictims(except key: UInt64?) -> Int32? {
    var kept: Int32?
    for index in scratch.indices {
      let victim = scratch[index]
      let slot = slot(of: victim)
      if victim.key == key {
        kept = slot
        continue
      }
      assert(entries.indexed || slot >= 0, "a policy with stable slots reported a victim without its slot")
      guard slot >= 0 else { continue }
      evicted.record(victim.key, entries[slot])
      entries.remove(slot)
    }
    return kept
  }
}
