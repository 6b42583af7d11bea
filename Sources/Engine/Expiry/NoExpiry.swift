import CacheCore

/// Objects never expire; they leave only by eviction or cleanup.
struct NoExpiry: ExpiryRule {
  var name: String { "none" }
  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness { .fresh }
}
