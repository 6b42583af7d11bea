import CacheCore

/// The origin server as far as the trace describes it: each object's current version,
/// learned from `get` and `origin` rows. A `get` row without a version inherits the last one
/// seen (or the first, 0), so staleness can be judged on any trace.
struct OriginModel: ~Copyable {
  /// Starts small (it grows by doubling): most engines, and every policy run, see no versions.
  private var versions = VersionTable(initialCapacity: 16)

  /// Starts loading `key`'s version entry (a hint; nothing changes).
  @inline(__always)
  func prefetch(_ key: UInt64) { versions.prefetch(key) }

  /// Records an `origin` row (a new version without a client request).
  mutating func update(_ key: UInt64, recorded: Int64) {
    guard recorded >= 0 else { return }
    versions.set(key, recorded)
  }

  /// The object's current version for a `get` or `put` row: the row's own (`recorded`, its
  /// `version` attribute, when not -1), or the last one seen (0 when none was). One table
  /// access. Takes the version alone: passing the whole attributes would copy them.
  mutating func version(_ key: UInt64, recorded: Int64) -> Int64 {
    guard recorded >= 0 else {
      // No version seen yet (a trace without versions): every object is at the first, 0.
      return versions.count == 0 ? 0 : versions.version(of: key) ?? 0
    }
    versions.set(key, recorded)
    return recorded
  }
}
