import CacheCore

/// A library time to live: the trace's `ttl` column, else `seconds` (0: never); with
/// `sliding`, every hit restarts it (Kingfisher's `.cacheTime`). An expired object is a miss
/// (no revalidation).
struct TTLExpiry: ExpiryRule {
  /// Default time to live in microseconds (0: never expires).
  var duration: Int64
  var sliding: Bool

  var name: String { "ttl:\(Duration.format(duration))\(sliding ? ",sliding" : "")" }

  func prepare(_ metadata: inout EntryMetadata, attributes: RequestAttributes, now: Int64) {
    let ttl = attributes.ttl >= 0 ? attributes.ttl : duration
    metadata.ttl = ttl
    metadata.expiresAt = ttl > 0 ? now + ttl : .max
  }

  func freshness(of metadata: EntryMetadata, now: Int64) -> Freshness {
    metadata.expiresAt > now ? .fresh : .expired
  }

  func touch(_ metadata: inout EntryMetadata, now: Int64) {
    if sliding, metadata.ttl > 0 { metadata.expiresAt = now + metadata.ttl }
  }

  /// Parses the text after `ttl:`: `DURATION[,sliding]`.
  init(parsing text: Substring) throws(ConfigurationError) {
    let parts = text.split(separator: ",")
    guard let first = parts.first, let micros = Duration.microseconds(String(first)),
      parts.count == 1 || (parts.count == 2 && parts[1] == "sliding")
    else {
      throw ConfigurationError(
        .invalidValue,
        "expiry 'ttl:\(text)': write ttl:DURATION[,sliding], e.g. ttl:300s,sliding (at most \(Duration.maximumDescription))"
      )
    }
    self.init(duration: micros, sliding: parts.count == 2)
  }

  init(duration: Int64, sliding: Bool) {
    self.duration = duration
    self.sliding = sliding
  }
}
