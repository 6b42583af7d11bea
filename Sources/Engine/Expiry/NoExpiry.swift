import CacheCore

/// Objects never expire; they leave only by eviction or cleanup.
struct NoExpiry: ExpiryRule {
  var name: String { "none" }
  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness { .fresh }
}

extension ExpiryRuleEntry {
  /// `none`.
  public static let none = ExpiryRuleEntry(
    name: "none", summary: "objects never expire; they leave only by eviction or cleanup"
  ) { _ in NoExpiry() }
}
