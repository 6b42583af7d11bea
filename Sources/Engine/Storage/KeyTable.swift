import CacheCore

/// The keys a library has looked up (``KeyTableRule``), most recently looked up first, each
/// with its use count and last lookup. An arena list: O(1) per lookup, nothing allocated once
/// it has grown to its capacity.
final class KeyTable {
  /// A key's lookups: the wrapped use count and the last lookup's trace time.
  struct Use {
    var lastLookup: Int64
    var uses: Int32
  }

  let rule: KeyTableRule
  private var arena: SlotArena<Use>
  private var order = SlotList()
  /// The key count at or above which a manager pass trims (none until a forced expiry).
  private(set) var watermark = Int.max

  init(_ rule: KeyTableRule) {
    self.rule = rule
    arena = SlotArena(initialCapacity: min(rule.capacity, 1 << 16))
  }

  var count: Int { arena.count }

  /// The slot of `key`, or -1.
  @inline(__always)
  func find(_ key: UInt64) -> Int32 { arena.find(key) }

  /// Whether the key at `slot` has gone unused for the rule's inactive time at `now`.
  @inline(__always)
  func isInactive(_ slot: Int32, now: Int64) -> Bool { now - arena[slot].extra.lastLookup >= rule.inactive }

  /// Counts a lookup of the key at `slot` (restarting at 1 when `restart`) and moves it to the
  /// front; returns its use count.
  @inline(__always)
  func lookUp(_ slot: Int32, now: Int64, restart: Bool) -> Int {
    let uses = restart ? 1 : (Int(arena[slot].extra.uses) + 1) % rule.usesModulo
    arena[slot].extra = Use(lastLookup: now, uses: Int32(uses))
    arena.moveToFront(slot, in: &order)
    return uses
  }

  /// Whether a new key needs a forced expiry first.
  var isFull: Bool { arena.count >= rule.capacity }

  /// Sets the watermark from the current count (when a new key finds the table full).
  func setWatermark() { watermark = count - count / rule.watermarkDivisor }

  /// Adds `key`, looked up once at `now`, at the front.
  func insert(_ key: UInt64, now: Int64) {
    let slot = arena.insert(key: key, size: 0, extra: Use(lastLookup: now, uses: 1))
    arena.pushFront(slot, to: &order)
  }

  /// The least recently looked-up key and its last lookup, or nil when empty.
  var oldest: (key: UInt64, lastLookup: Int64)? {
    guard order.tail >= 0 else { return nil }
    let node = arena[order.tail]
    return (node.key, node.extra.lastLookup)
  }

  /// Removes the least recently looked-up key (the table must not be empty) and returns it.
  func removeOldest() -> UInt64 { arena.evict(order.tail, from: &order).key }

  /// Removes `key` if present.
  func remove(_ key: UInt64) { _ = arena.evict(key: key, from: &order) }

  /// Checks the list's links and count (tests).
  func check() throws(InvariantViolation) { try arena.checkList(order, named: "key table") }
}
