/// The expiry times of the cached objects that expire (key → trace time in µs), kept beside a
/// policy in a `--ttl` run (``TimeToLive``). Objects that never expire have no entry.
public struct ExpiryTable: Sendable {
  @usableFromInline var expiries: [UInt64: Int64] = [:]

  public init() {}

  /// Number of cached objects with an expiry time.
  public var count: Int { expiries.count }

  /// Slots the table has allocated.
  public var slotCount: Int { expiries.capacity }

  /// The expiry time of `key`, or nil if it never expires or is not cached.
  public func expiry(of key: UInt64) -> Int64? { expiries[key] }
}

extension EvictionPolicy where Self: ~Copyable {
  /// The replay loop of a `--ttl` run: before each `get`, an object whose expiry time is
  /// strictly before the request's time is removed and counted as expired, so the request
  /// misses and inserts it again; each insertion (a miss or a `put`) sets the new object's
  /// expiry from its request's TTL (`ttls[i].ttl`, µs) or the rule's default. O(1) expected
  /// per request besides the policy's own work (one hash-table lookup, one update per miss).
  /// The policy serves through its engine-tier hooks (``PolicyLoopHooks/serve(_:collecting:admission:)``),
  /// so a `--ttl` run adds no copy of the policy's code; one array of victims per call.
  @inlinable
  public mutating func replayExpiring(
    _ requests: UnsafeBufferPointer<Request>, attributes: UnsafePointer<RequestAttributes>?, range: Range<Int>,
    rule: TimeToLive, table: inout ExpiryTable, counters: inout MissCounters, admission: AdmissionGate?
  ) {
    var victims: [Victim] = []
    for index in range {
      let request = requests[index]
      let lifetime = rule.lifetime(requestTTL: attributes?[index].ttl ?? -1)
      switch request.operation {
      case .get:
        counters.requests &+= 1
        counters.requestBytes &+= request.size
        if let expiry = table.expiries[request.key], expiry < request.time {
          table.expiries.removeValue(forKey: request.key)
          if remove(request.key) != nil { counters.expired &+= 1 }
        }
        admission?.observe(request)
        let outcome = serve(request, collecting: &victims, admission: admission)
        table.forget(victims, counting: &counters)
        guard outcome != .hit else { continue }
        counters.misses &+= 1
        counters.missBytes &+= request.size
        if outcome == .rejected {
          counters.rejected &+= 1
        } else {
          table.remember(request.key, insertedAt: request.time, lifetime: lifetime)
        }
      case .put:
        let outcome = store(request, collecting: &victims, admission: admission)
        table.forget(victims, counting: &counters)
        if outcome == .inserted { table.remember(request.key, insertedAt: request.time, lifetime: lifetime) }
      case .delete:
        _ = remove(request.key)
        table.expiries.removeValue(forKey: request.key)
      case .event, .origin:
        break
      }
    }
  }
}

extension ExpiryTable {
  /// Forgets the expiry times of `victims` (evicted objects) and counts them as evictions.
  @inlinable
  mutating func forget(_ victims: [Victim], counting counters: inout MissCounters) {
    for victim in victims { expiries.removeValue(forKey: victim.key) }
    counters.evictions &+= Int64(victims.count)
  }

  /// Records that `key` was inserted at `time` with `lifetime` µs to live (0: forever).
  @inlinable
  mutating func remember(_ key: UInt64, insertedAt time: Int64, lifetime: Int64) {
    if lifetime > 0 {
      expiries[key] = time &+ lifetime
    } else {
      expiries.removeValue(forKey: key)
    }
  }
}
