import CacheCore
import Engine
import Policies

/// What a report row shows, whatever replayed it: a (policy, capacity) cache
/// (``CacheResult``) or a whole engine (``EngineResult``). Reports read every result through
/// this one interface; each kind states here, once, what its counters mean.
public protocol ReplayedCache: Sendable {
  /// The policy's name, or the engine's label (`preset:NAME`, `engine`).
  var name: String { get }
  /// How tables name the row: the policy's label with its admission (`lru+bloom-filter`), or
  /// the engine's label.
  var label: String { get }
  /// Every parameter: the policy's (`k=v;k=v`), or the engine's tiers and rules.
  var parameterSummary: String { get }
  /// The capacity (bytes, or objects in object mode; an engine's first tier), nil if unlimited.
  var capacityLimit: Int64? { get }
  /// The size as given, or the engine's tiers.
  var capacityDescription: String { get }
  /// Whether the size was given relative to the working set (tables show it beside the bytes).
  var capacityIsRelative: Bool { get }
  /// Counted (post-warm-up) requests and their bytes.
  var requests: Int64 { get }
  var requestBytes: Int64 { get }
  /// Counted requests that missed, and their bytes.
  var misses: Int64 { get }
  var missBytes: Int64 { get }
  /// Objects evicted (an engine's from both tiers).
  var evictions: Int64 { get }
  /// Misses too large to insert; nil where the notion does not apply (engines).
  var rejections: Int64? { get }
  /// The admission policy in front of the cache (`name:k=v;k=v`), empty when there is none;
  /// an engine's tiers name theirs in ``parameterSummary``.
  var admission: String { get }
  /// Objects the admission policy refused (misses and puts); nil without one.
  var declined: Int64? { get }
  /// Bytes the simulated cache's own structures held; nil where not accounted (engines).
  var structureBytes: Int64? { get }
  /// Seconds spent replaying (policy and engine work, not trace reading).
  var replaySeconds: Double { get }
  /// Index in the run's grid (``RunConfiguration/gridSize``).
  var cell: Int { get }
  /// Whether a policy involved draws random numbers.
  var isRandomized: Bool { get }
  /// Lookups that found an expired or stale object in `run`; nil when nothing could expire
  /// (a policy cache without `--ttl`).
  func expiredLookups(in run: RunConfiguration) -> Int64?
  /// The spatial sampling rate this result was simulated at in `run`.
  func sampleRate(in run: RunConfiguration) -> Double
  /// The engine's own counters, for an engine.
  var engineResult: EngineResult? { get }
}

extension ReplayedCache {
  public var hits: Int64 { requests - misses }
  public var engineResult: EngineResult? { nil }
  public var capacityIsRelative: Bool { false }
}

extension CacheResult: ReplayedCache {
  public var name: String { policy.name }
  public var label: String { policy.label }
  public var capacityIsRelative: Bool { capacitySpec.needsWorkingSet }
  /// `k=v;k=v`: semicolons, so that the list stays one cell in a CSV.
  public var parameterSummary: String { String(policy.parameters.description.map { $0 == "," ? ";" : $0 }) }
  public var capacityLimit: Int64? { capacity }
  public var capacityDescription: String { capacitySpec.description }
  public var misses: Int64 { counters.misses }
  public var missBytes: Int64 { counters.missBytes }
  public var evictions: Int64 { counters.evictions }
  public var rejections: Int64? { counters.rejected }
  public var admission: String { policy.admission?.csvValue ?? "" }
  public var declined: Int64? { policy.admission == nil ? nil : counters.declined }
  public var structureBytes: Int64? { storageBytes }
  public var isRandomized: Bool { policy.entry.descriptor.isRandomized }
  public func expiredLookups(in run: RunConfiguration) -> Int64? {
    run.timeToLive == nil ? nil : counters.expired
  }
  public func sampleRate(in run: RunConfiguration) -> Double { sampleRate }
}

extension EngineResult: ReplayedCache {
  public var name: String { label }
  public var parameterSummary: String { configuration.summary }
  public var capacityLimit: Int64? {
    guard let tier = configuration.memory ?? configuration.disk, tier.capacity != .max else { return nil }
    return tier.capacity
  }
  public var capacityDescription: String {
    [configuration.memory, configuration.disk].compactMap { $0?.description }.joined(separator: " + ")
  }
  public var requests: Int64 { stats.requests }
  public var requestBytes: Int64 { stats.requestBytes }
  public var misses: Int64 { stats.misses }
  public var missBytes: Int64 { stats.missBytes }
  public var evictions: Int64 { stats.memoryEvictions + stats.diskEvictions }
  public var rejections: Int64? { nil }
  public var admission: String { "" }
  public var declined: Int64? { nil }
  public var structureBytes: Int64? { nil }
  public var isRandomized: Bool {
    [configuration.memory, configuration.disk].contains { $0?.policy.entry.descriptor.isRandomized == true }
  }
  public func expiredLookups(in run: RunConfiguration) -> Int64? { stats.expired }
  /// An engine is never sampled on its own: the run's rate.
  public func sampleRate(in run: RunConfiguration) -> Double { run.slice.sampleRate }
  public var engineResult: EngineResult? { self }
}
