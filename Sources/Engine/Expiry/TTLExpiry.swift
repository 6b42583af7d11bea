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

  init(duration: Int64, sliding: Bool) {
    self.duration = duration
    self.sliding = sliding
  }
}

extension ExpiryRuleEntry {
  /// `ttl:DURATION[,sliding]`.
  public static let ttl = ExpiryRuleEntry(
    name: "ttl",
    summary: "a library time to live: the trace's ttl column, else duration; an expired object is a miss",
    parameters: [
      ParameterSpec("duration", default: "0", .duration, help: "time to live when the trace gives none (0: never)"),
      ParameterSpec("sliding", default: "false", .boolean, help: "every hit restarts the time to live"),
    ],
    positional: "duration"
  ) { parameters in
    TTLExpiry(duration: parameters.duration("duration"), sliding: parameters.boolean("sliding"))
  }
}
