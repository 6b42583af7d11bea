import CacheCore

/// The origin server as far as the trace describes it: each object's current version,
/// learned from `get` and `origin` rows. A `get` row without a version inherits the last one
/// seen (or the first, 0), so staleness can be judged on any trace.
struct OriginModel: ~Copyable {
  private var versions = SlotArena<Int64>(initialCapacity: 1 << 12)

  /// Records an `origin` row (a new version without a client request).
  mutating func update(_ key: UInt64, _ attributes: RequestAttributes) {
    guard attributes.version >= 0 else { return }
    let slot = versions.find(key)
    if slot >= 0 {
      versions[slot].extra = attributes.version
    } else {
      _ = versions.insert(key: key, size: 0, extra: attributes.version)
    }
  }

  /// The object's current version for a `get` or `put` row: the row's own (recorded), or the
  /// last one seen (0 when none was).
  mutating func version(_ key: UInt64, _ attributes: RequestAttributes) -> Int64 {
    // No version seen yet (a trace without versions): every object is at the first, 0.
    if attributes.version < 0, versions.count == 0 { return 0 }
    let slot = versions.find(key)
    guard attributes.version >= 0 else { return slot >= 0 ? versions[slot].extra : 0 }
    if slot >= 0 {
      versions[slot].extra = attributes.version
    } else {
      _ = versions.insert(key: key, size: 0, extra: attributes.version)
    }
    return attributes.version
  }
}
