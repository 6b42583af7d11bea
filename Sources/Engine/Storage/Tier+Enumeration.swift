import CacheCore

/// Walking a tier's objects (purges, flushes, disk cleanups, self-checks): metadata read in
/// place, tracked objects by the policy's slots or the tier's index.
extension Tier {
  /// Calls `body` with the slot of every tracked object, in slot order; `body` must not change
  /// the tier. Without an index, a slot is held while the policy finds its key there.
  func forEachTrackedSlot<E: Error>(_ body: (Int32) throws(E) -> Void) throws(E) {
    var slot: Int32 = 0
    while slot < entries.slotLimit {
      let held = entries.indexed ? entries.isLive(slot) : simulation.holds(entries.key(slot), at: slot)
      if held { try body(slot) }
      slot += 1
    }
  }

  /// Calls `body` with every held object's key and metadata, read in place through the
  /// pointer (not copied), untracked first, then tracked, in slot order, without collecting
  /// them; `body` must not change the tier.
  func forEachObject(_ body: (UInt64, UnsafePointer<EntryMetadata>) throws(FileError) -> Void) throws(FileError) {
    var slot: Int32 = 0
    // Slot by slot rather than through a closure-taking arena method, so `body` may throw.
    while slot < untracked.slotLimit {
      if untracked.isLive(slot) { try body(untracked.key(slot), untracked.pointer(to: slot)) }
      slot += 1
    }
    try forEachTrackedSlot { (slot) throws(FileError) in try body(entries.key(slot), entries.pointer(to: slot)) }
  }

  /// The keys of every held object (untracked first, then tracked), in slot order.
  func keys() -> [UInt64] { keys { _ in true } }

  /// The keys of the held objects whose metadata satisfies `predicate`, which reads it in
  /// place through the pointer (not copied): untracked first, then tracked, in slot order.
  func keys(where predicate: (UnsafePointer<EntryMetadata>) -> Bool) -> [UInt64] {
    var result: [UInt64] = []
    untracked.forEachLiveSlot { slot in
      if predicate(untracked.pointer(to: slot)) { result.append(untracked.key(slot)) }
    }
    forEachTrackedSlot { slot in
      if predicate(entries.pointer(to: slot)) { result.append(entries.key(slot)) }
    }
    return result
  }

  /// Every held object (untracked first, then tracked), in slot order.
  func all() -> [(key: UInt64, metadata: EntryMetadata)] {
    var result: [(key: UInt64, metadata: EntryMetadata)] = []
    result.reserveCapacity(count)
    untracked.forEachLiveSlot { slot in result.append((untracked.key(slot), untracked[slot])) }
    forEachTrackedSlot { slot in result.append((entries.key(slot), entries[slot])) }
    return result
  }

  /// Checks the policy and that it holds exactly the objects with metadata.
  func checkInvariants() throws(InvariantViolation) {
    try simulation.checkInvariants()
    guard keepsMetadata else { return }
    if entries.indexed { try entries.checkIndex() }
    try untracked.checkIndex()
    var tracked = 0
    var missing = false
    forEachTrackedSlot { slot in
      tracked += 1
      if !simulation.contains(entries.key(slot)) { missing = true }
    }
    guard simulation.objectCount == tracked else {
      throw InvariantViolation("policy holds \(simulation.objectCount) objects, metadata \(tracked)")
    }
    guard !missing else { throw InvariantViolation("an object with metadata is not in the policy") }
  }
}
