import CacheCore

/// The objects a tier operation evicted: always counted, and kept (key and metadata) only
/// when the caller needs them, so that a plain eviction copies no metadata. Reused across
/// requests: ``reset()`` keeps the storage.
struct EvictedObjects {
  /// Whether evicted objects are kept in ``items`` (else only counted).
  let collects: Bool
  /// Objects evicted since the last reset.
  private(set) var count = 0
  /// The evicted objects, in eviction order (empty unless ``collects``).
  private(set) var items: [(key: UInt64, metadata: EntryMetadata)] = []

  init(collects: Bool) {
    self.collects = collects
    if collects { items.reserveCapacity(64) }
  }

  /// Forgets the objects recorded so far, keeping the storage.
  mutating func reset() {
    count = 0
    if collects, !items.isEmpty { items.removeAll(keepingCapacity: true) }
  }

  /// Records an evicted object; `metadata` is read only when kept.
  @inline(__always)
  mutating func record(_ key: UInt64, _ metadata: @autoclosure () -> EntryMetadata) {
    count += 1
    if collects { items.append((key, metadata())) }
  }
}
