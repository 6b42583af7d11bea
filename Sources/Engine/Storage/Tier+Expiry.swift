import CacheCore

/// The tier's expiry rule on its objects; a tier whose objects never expire answers without
/// asking the rule.
extension Tier {
  /// What a lookup at `now` may do with `metadata` (the tier's expiry rule).
  @inline(__always)
  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    expiresNothing ? .fresh : configuration.expiry.freshness(of: metadata, now: now)
  }

  /// Whether the expiry rule lets the tier store a response with `attributes`.
  @inline(__always)
  func allowsStoring(_ attributes: RequestAttributes, now: Int64) -> Bool {
    expiresNothing || configuration.expiry.allowsStoring(attributes, now: now)
  }

  /// Sets the expiry of an object being stored (never, without a rule).
  @inline(__always)
  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    if expiresNothing {
      metadata.expiresAt = .max
    } else {
      configuration.expiry.prepare(&metadata, attributes: attributes, now: now)
    }
  }

  /// Restarts a sliding expiry on a hit.
  @inline(__always)
  func touchExpiry(_ metadata: inout EntryMetadata, now: Int64) {
    if !expiresNothing { configuration.expiry.touch(&metadata, now: now) }
  }

  /// What a lookup at `now` may do with the metadata at `pointer` (a tier's, read in place).
  @inline(__always)
  func freshness(at pointer: UnsafePointer<EntryMetadata>, now: Int64) -> Freshness {
    expiresNothing ? .fresh : configuration.expiry.freshness(at: pointer, now: now)
  }

  /// What a lookup at `now` may do with the object at `location`, read in place.
  @inline(__always)
  func freshness(at location: Location, now: Int64) -> Freshness {
    expiresNothing ? .fresh : configuration.expiry.freshness(at: pointer(to: location), now: now)
  }
}
