import CacheCore

/// The origin server as far as the trace describes it: each object's current version,
/// learned from `get` and `origin` rows. A `get` row without a version inherits the last one
/// seen (or the first, 0), so staleness can be judged on any trace.
struct OriginModel: ~Copyable {
  /// Starts small (it grows by doubling): most engines, and every policy run, see no versions.
  private var versions = VersionTable(initialCapacity: 16)

  /// Records an `origin` row (a new version without a client request).
  mutating func update(_ key: UInt64, _ attributes: RequestAttributes) {
    guard attributes.version >= 0 else { return }
    versions.set(key, attributes.version)
  }

  /// The object's current version for a `get` or `put` row: the row's own (recorded), or the
  /// last one seen (0 when none was). One table access.
  mutating func version(_ key: UInt64, _ attributes: RequestAttributes) -> Int64 {
    guard attributes.version >= 0 else {
      // No version seen yet (a trace without versions): every object is at the first, 0.
      return versions.count == 0 ? 0 : versions.version(of: key) ?? 0
    }
    versions.set(key, attributes.version)
    return attributes.version
  }
}
