/// Initial arena capacity for a cache of `capacity` bytes or objects: large enough to
/// avoid early regrowth for small caches, small enough not to over-allocate for huge ones.
@usableFromInline
func initialSlotCapacity(for capacity: Int64) -> Int {
  Int(min(max(capacity, 16), 1 << 16))
}
