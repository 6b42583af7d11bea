/// How a plain policy run expires objects (`--ttl`), with libCacheSim's lazy-expiry rules
/// (`cache_find_base` and `cache_insert_base` in its `cache/cache.c`, built with `SUPPORT_TTL`).
///
/// An object inserted at trace time `t` expires at `t + ttl`, where `ttl` is the request's own
/// TTL (the trace's TTL column) when positive, otherwise ``defaultLifetime``; with neither it
/// never expires. A hit does not extend the lifetime. A request that finds its object with an
/// expiry time strictly before the request's time counts as a miss: the object is removed (not
/// an eviction), counted in `expired`, and inserted again as new.
public struct TimeToLive: Sendable, Equatable, CustomStringConvertible {
  /// Lifetime in µs for objects whose request carries no TTL; 0: such objects never expire.
  public var defaultLifetime: Int64

  /// Expiry from the trace's TTL column only (`--ttl trace`), or with a default lifetime.
  public init(defaultLifetime: Int64 = 0) {
    precondition(defaultLifetime >= 0 && defaultLifetime <= Duration.maximum, "lifetime out of range")
    self.defaultLifetime = defaultLifetime
  }

  /// Parses `trace` (the trace's TTL column) or a duration (`3600s`, `30m`, `2h`, `7d`: the
  /// default for requests without a TTL of their own).
  ///
  /// - Throws: ``ConfigurationError`` for anything else, or a zero duration.
  public init(parsing text: String) throws(ConfigurationError) {
    let trimmed = text.filter { $0 != " " }.lowercased()
    if trimmed == "trace" {
      self.init()
      return
    }
    guard let micros = Duration.microseconds(trimmed), micros > 0 else {
      throw ConfigurationError(
        .invalidValue,
        "--ttl '\(text)' must be 'trace' (the trace's TTL column) or a positive duration for objects without one (e.g. 3600s, 30m, 2h, 7d; at most \(Duration.maximumDescription))"
      )
    }
    self.init(defaultLifetime: micros)
  }

  /// Whether objects without a TTL of their own expire too.
  public var hasDefault: Bool { defaultLifetime > 0 }

  /// `trace`, or the default lifetime (`2h`).
  public var description: String { hasDefault ? Duration.format(defaultLifetime) : "trace" }

  /// The lifetime of an object inserted by a request whose TTL column holds `ttl` (µs, ≤ 0:
  /// none); 0 means it never expires.
  @inlinable
  public func lifetime(requestTTL ttl: Int64) -> Int64 {
    ttl > 0 ? ttl : defaultLifetime
  }
}
