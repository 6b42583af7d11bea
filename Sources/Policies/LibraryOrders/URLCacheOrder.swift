import CacheCore

/// The store order of swift-corelibs-foundation's `URLCache` on Linux: first in, first out by
/// store, reads change nothing, and a store first trims from the oldest until the total
/// (still counting the key's current entry) is at most capacity − cost.
///
/// `restore=keep` is the memory tier (`storeCachedResponse` appends the key to
/// `inMemoryCacheOrder` again and replaces the entry in place, so the key's earliest queued
/// slot evicts it; a later slot whose entry is gone is skipped here, where Foundation traps
/// on a force unwrap, counted in ``danglingSlots``). `restore=move` is the disk tier (the new
/// file gets a new timestamp, the old one is deleted after the trim). An object costing the
/// capacity or more is not stored and the current entry stays. A removal
/// (`removeCachedResponse`) drops the key's entry and all its queued slots.
/// Origin: URLCache.swift `storeCachedResponse`, `evictFromMemoryCacheAssumingLockHeld`,
/// `evictFromDiskCache`. Memory: 40 B per object + 16 B per queued slot.
public struct URLCacheOrder: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "urlcache",
    summary:
      "Linux Foundation URLCache: FIFO by store; a store trims the oldest while the old entry still counts; `restore=keep` (memory: a re-store keeps its queue place) or `move` (disk: new timestamp); an object costing the capacity is refused and the old entry stays",
    origin: "swift-corelibs-foundation URLCache.swift (inMemoryCacheOrder, evictFromDiskCache)",
    parameters: [
      ParameterSpec(
        "restore", default: "keep", .choice(["keep", "move"]),
        help: "a re-store keeps the key's queue place (memory) or moves it to the back (disk)")
    ],
    memoryPerObject: "40 B (32 B node + 4 B bucket + slot index) + 16 B per queued store",
    libCacheSim: .none(reason: "CacheLab-only (Foundation URLCache order)"))

  /// One queued store: the key, and whether a removal took it out of the queue.
  @usableFromInline
  struct Slot {
    @usableFromInline var key: UInt64
    @usableFromInline var cancelled: Bool

    @inlinable init(key: UInt64) {
      self.key = key
      cancelled = false
    }
  }

  /// Entries; `extra` is the absolute queue index of the entry's latest slot.
  @usableFromInline var arena: SlotArena<Int>
  /// Queued slots, oldest at `head`; `base` is the absolute index of `order[0]`.
  @usableFromInline var order: [Slot] = []
  @usableFromInline var head = 0
  @usableFromInline var base = 0
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline let movesOnRestore: Bool
  public let capacity: Int64
  @usableFromInline var dangling: Int64 = 0
  /// Slots popped whose entry was already gone (Foundation's force unwrap would trap there).
  public var danglingSlots: Int64 { dangling }

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    movesOnRestore = parameters.string("restore") == "move"
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + order.count * MemoryLayout<Slot>.stride }

  @inlinable
  public mutating func access(_ request: Request) -> Bool { arena.find(request.key) >= 0 }

  @inlinable
  public mutating func insert(_ request: Request) {
    _ = arena.insert(key: request.key, size: request.size, extra: enqueue(request.key))
    bytes += request.size
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if arena.find(request.key) >= 0 { return .hit }
    return store(request, collecting: &victims, admission: admission)
  }

  /// `storeCachedResponse`: refuse at cost ≥ capacity, trim to capacity − cost, then store.
  @inlinable
  public mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    guard admission.admits(request), request.size < capacity else { return .rejected }
    while bytes > capacity - request.size, popSlot(collecting: &victims) {}
    let slot = arena.find(request.key)
    guard slot >= 0 else {
      insert(request)
      return .inserted
    }
    if movesOnRestore { order[arena[slot].extra - base].cancelled = true }
    bytes += request.size - arena[slot].size
    arena[slot].size = request.size
    arena[slot].extra = enqueue(request.key)
    return .inserted
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let before = arena.count
    while arena.count == before, popSlot(collecting: &victims) {}
  }

  /// `removeCachedResponse`: the entry and every queued slot of its key go.
  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    if movesOnRestore {
      order[arena[slot].extra - base].cancelled = true
    } else {
      for index in head..<order.count where order[index].key == key { order[index].cancelled = true }
    }
    return release(slot)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  /// Appends a slot for `key`; returns its absolute index. Amortised O(1), no allocation
  /// once the queue has reached its working size.
  @inlinable
  mutating func enqueue(_ key: UInt64) -> Int {
    if head >= 64, head * 2 >= order.count {
      order.removeSubrange(0..<head)
      base += head
      head = 0
    }
    order.append(Slot(key: key))
    return base + order.count - 1
  }

  /// Pops the oldest slot, evicting its key's entry if there is one; false when empty.
  @inlinable
  mutating func popSlot<Sink: VictimSink>(collecting victims: inout Sink) -> Bool {
    guard head < order.count else { return false }
    let popped = order[head]
    head += 1
    guard !popped.cancelled else { return true }
    let slot = arena.find(popped.key)
    if slot >= 0 {
      victims.record(release(slot))
    } else {
      dangling += 1
    }
    return true
  }

  @inlinable
  mutating func release(_ slot: Int32) -> Victim { arena.release(slot, from: &bytes) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    var total: Int64 = 0
    var unqueued = false
    arena.forEachLiveSlot { slot in
      total += arena[slot].size
      let index = arena[slot].extra - base
      if index < head || index >= order.count || order[index].cancelled || order[index].key != arena[slot].key {
        unqueued = true
      }
    }
    guard total == bytes else { throw InvariantViolation("entries total \(total), counted \(bytes)") }
    guard !unqueued else { throw InvariantViolation("an entry's latest slot is not queued") }
  }
}
