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

/// A ``VictimSink`` for `--ttl` replays: counts evictions and forgets the victims' expiry times.
@frozen
public struct ExpiringVictimSink: VictimSink {
  @usableFromInline var table: ExpiryTable
  @usableFromInline var evictions = EvictionCounter()

  @inlinable
  init(_ table: consuming ExpiryTable) {
    self.table = table
  }

  @inlinable
  public mutating func record(_ victim: Victim) {
    evictions.record(victim)
    table.expiries.removeValue(forKey: victim.key)
  }
}

extension EvictionPolicy where Self: ~Copyable {
  /// The replay loop of a `--ttl` run: before each `get`, an object whose expiry time is
  /// strictly before the request's time is removed and counted as expired, so the request
  /// misses and inserts it again; each insertion (a miss or a `put`) sets the new object's
  /// expiry from its request's TTL (`ttls[i].ttl`, µs) or the rule's default. O(1) expected
  /// per request besides the policy's own work (one hash-table lookup, one update per miss).
  @inlinable
  public mutating func replayExpiring(
    _ requests: UnsafeBufferPointer<Request>, attributes: UnsafePointer<RequestAttributes>?, range: Range<Int>,
    rule: TimeToLive, table: inout ExpiryTable, counters: inout MissCounters, admission: AdmissionGate?
  ) {
    // One copy per policy for both cases (the expiry lookup per request dwarfs the branch).
    replayExpiringLoop(
      requests, attributes: attributes, range: range, rule: rule, table: &table, counters: &counters,
      admission: OptionalAdmissionGate(admission))
  }

  /// ``PolicyLoopHooks/replayExpiring(_:attributes:range:rule:table:counters:admission:)`` for one kind of
  /// admission check.
  @inlinable
  public mutating func replayExpiringLoop<Gate: AdmissionCheck>(
    _ requests: UnsafeBufferPointer<Request>, attributes: UnsafePointer<RequestAttributes>?, range: Range<Int>,
    rule: TimeToLive, table: inout ExpiryTable, counters: inout MissCounters, admission: Gate
  ) {
    var sink = ExpiringVictimSink(table)
    table = ExpiryTable()
    defer {
      swap(&table, &sink.table)
      counters.evictions &+= sink.evictions.count
    }
    for index in range {
      let request = requests[index]
      let lifetime = rule.lifetime(requestTTL: attributes?[index].ttl ?? -1)
      switch request.operation {
      case .get:
        counters.requests &+= 1
        counters.requestBytes &+= request.size
        if let expiry = sink.table.expiries[request.key], expiry < request.time {
          sink.table.expiries.removeValue(forKey: request.key)
          if remove(request.key) != nil { counters.expired &+= 1 }
        }
        admission.observe(request)
        let outcome = handle(request, collecting: &sink, admission: admission)
        guard outcome != .hit else { continue }
        counters.misses &+= 1
        counters.missBytes &+= request.size
        if outcome == .rejected {
          counters.rejected &+= 1
        } else {
          sink.table.remember(request.key, insertedAt: request.time, lifetime: lifetime)
        }
      case .put:
        if store(request, collecting: &sink, admission: admission) == .inserted {
          sink.table.remember(request.key, insertedAt: request.time, lifetime: lifetime)
        }
      case .delete:
        _ = remove(request.key)
        sink.table.expiries.removeValue(forKey: request.key)
      case .event, .origin:
        break
      }
    }
  }
}

extension ExpiryTable {
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
