import CacheCore
import Engine

/// Drives a ``CacheEngine`` one request at a time and says what each request did.
final class EngineDriver {
  enum Result: Equatable {
    case memoryHit, diskHit, fetched, revalidated304, revalidated200, error, bypassed
  }

  let engine: CacheEngine

  init(_ configuration: EngineConfiguration, seed: UInt64 = 0) throws {
    engine = try CacheEngine(configuration, seed: seed)
  }

  convenience init(preset: String) throws {
    try self.init(PresetSpec(parsing: preset).configuration)
  }

  static func micros(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }

  @discardableResult
  func get(
    _ key: UInt64, at time: Double, size: Int64 = 100, cost: Int64 = -1, contentClass: ContentClass = .data,
    cacheControl: String? = nil, version: Int64 = 1, etag: String? = nil, lastModified: Double? = nil,
    expires: Double? = nil, date: Double? = nil, ttl: Double? = nil, status: Int16 = 200, latency: Double = 0.1,
    url: String? = nil, vary: Bool = false, varyAll: Bool = false, setCookie: Bool = false,
    authorization: Bool = false, storedSize: Int64 = -1, observed: ObservedOutcome = .unknown,
    operation: Request.Operation = .get
  ) throws -> Result {
    var attributes = RequestAttributes()
    attributes.cost = cost
    attributes.contentClass = contentClass
    attributes.cacheControl = cacheControl.map { CacheControl(parsing: $0) } ?? CacheControl()
    attributes.version = version
    if let etag { attributes.etag = KeyHash.hash(etag) }
    attributes.lastModified = lastModified.map(Self.micros) ?? RequestAttributes.absent
    attributes.expires = expires.map(Self.micros) ?? RequestAttributes.absent
    attributes.date = date.map(Self.micros) ?? RequestAttributes.absent
    attributes.ttl = ttl.map(Self.micros) ?? -1
    attributes.status = status
    attributes.latency = Self.micros(latency)
    if let url { attributes.url = URLKey(parsing: url) }
    attributes.vary = vary || varyAll
    attributes.varyAll = varyAll
    attributes.setCookie = setCookie
    attributes.storedSize = storedSize
    attributes.authorization = authorization
    attributes.observed = observed
    let before = engine.stats
    try engine.process(Request(time: Self.micros(time), key: key, size: size, operation: operation), attributes)
    let after = engine.stats
    if after.memoryHits > before.memoryHits { return .memoryHit }
    if after.diskHits > before.diskHits { return .diskHit }
    if after.revalidated304 > before.revalidated304 { return .revalidated304 }
    if after.revalidated200 > before.revalidated200 { return .revalidated200 }
    if after.originErrors > before.originErrors { return .error }
    if after.bypassed > before.bypassed { return .bypassed }
    return .fetched
  }

  /// Stores without a lookup (a `put` row).
  func put(_ key: UInt64, at time: Double, size: Int64 = 100, cost: Int64 = -1, url: String? = nil) throws {
    try get(key, at: time, size: size, cost: cost, url: url, operation: .put)
  }

  func event(_ event: LifecycleEvent, at time: Double) throws {
    var attributes = RequestAttributes()
    attributes.event = event
    try engine.process(Request(time: Self.micros(time), key: 0, size: 0, operation: .event), attributes)
  }

  var stats: EngineStats { engine.stats }
}
