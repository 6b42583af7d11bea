import CacheCore

/// What makes an engine a plain policy run: its memory tier alone, served by the policy's own
/// request loop with libCacheSim's semantics (a request's size on every hit, a `put` stored
/// as a miss, `--ttl` expiry inside the policy's simulation), counting misses, evictions,
/// rejections and admission refusals, with no latency, origin or disk model.
public struct PolicyRun: Sendable, Equatable {
  /// libCacheSim's time to live (`--ttl`), or nil: objects never expire.
  public var timeToLive: TimeToLive?

  public init(timeToLive: TimeToLive? = nil) {
    self.timeToLive = timeToLive
  }
}

extension EngineConfiguration {
  /// The engine of a plain policy run: `tier` as the memory tier, nothing else
  /// (``PolicyRun``). Its capacity counts objects when the run ignores sizes (the replayer
  /// then gives every row size 1).
  public static func policyRun(_ tier: TierConfiguration, timeToLive: TimeToLive? = nil) -> EngineConfiguration {
    var configuration = EngineConfiguration(name: "policy", memory: tier)
    configuration.policyRun = PolicyRun(timeToLive: timeToLive)
    return configuration
  }
}
