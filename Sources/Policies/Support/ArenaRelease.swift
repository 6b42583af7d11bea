import CacheCore

extension SlotArena {
  /// Frees `slot` (already out of every list and heap), subtracts its size from `bytes` and
  /// returns what it held. O(1).
  @inlinable
  mutating func release(_ slot: Int32, from bytes: inout Int64) -> Victim {
    let victim = Victim(key: self[slot].key, size: self[slot].size)
    bytes -= victim.size
    remove(slot)
    return victim
  }
}
