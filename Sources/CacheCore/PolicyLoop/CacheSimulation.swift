/// The counters of one simulated cache: its `get` requests, misses (hits are the difference)
/// and what its policy did.
@frozen
public struct MissCounters: Sendable, Equatable {
  /// `get` requests served, and their bytes.
  public var requests: Int64 = 0
  public var requestBytes: Int64 = 0
  /// Requests that missed (including rejected ones).
  public var misses: Int64 = 0
  /// Bytes requested by the misses.
  public var missBytes: Int64 = 0
  /// Objects evicted to make room.
  public var evictions: Int64 = 0
  /// Misses that were not inserted: larger than the whole cache, refused by the policy's
  /// own filter (W-TinyLFU) or by the admission policy.
  public var rejected: Int64 = 0
  /// Requests that found their object expired (`--ttl` runs; each is also a miss).
  public var expired: Int64 = 0
  /// Objects the admission policy refused: misses (also counted in ``rejected``) and puts.
  public var declined: Int64 = 0

  @inlinable
  public init() {}
}

/// One simulated cache that a replayer feeds batch by batch, possibly on another thread.
///
/// Implementations are used by one thread at a time; the replayer guarantees that.
public protocol CacheSimulation: AnyObject, Sendable {
  /// Replays `batch[range]` in order, adding to ``counters``.
  func replay(_ batch: RequestBatch, range: Range<Int>)
  /// Counters since creation or the last ``resetCounters()``.
  var counters: MissCounters { get }
  /// Zeroes the counters (the end of warm-up); the cache contents stay.
  func resetCounters()
  /// Total size of the cached objects.
  var occupiedBytes: Int64 { get }
  /// Number of cached objects.
  var objectCount: Int { get }
  /// Bytes of memory the simulated cache's own structures hold (the policy's
  /// ``EvictionPolicy/storageBytes`` plus a `--ttl` expiry table). O(1).
  var storageBytes: Int { get }
  /// Runs the policy's self-check.
  func checkInvariants() throws(InvariantViolation)

  /// Replays `requests[range]` as an engine's memory tier that keeps no metadata: the
  /// policy's own request loop (``PolicyLoopHooks/replayServing(_:range:outcomes:evictions:admission:)``),
  /// each `get`'s outcome written to `outcomes[index - range.lowerBound]`. Returns how many
  /// objects were evicted; ``counters`` do not change. Not for a `--ttl` simulation.
  func replayServing(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>
  ) -> Int64
  /// Serves one request; `victims` is replaced by the objects evicted to make room.
  func serve(_ request: Request, collecting victims: inout [Victim]) -> Outcome
  /// Serves a request for an object known to be cached (a hit: nothing is evicted), without
  /// collecting victims.
  func hit(_ request: Request)
  /// Stores the object whether or not it is cached (``EvictionPolicy/store(_:collecting:)``);
  /// `victims` is replaced by the objects evicted, possibly the object itself.
  func store(_ request: Request, collecting victims: inout [Victim]) -> Outcome
  /// Removes `key` if cached (not an eviction).
  func remove(_ key: UInt64) -> Victim?
  /// Whether `key` is cached, without changing any state.
  func contains(_ key: UInt64) -> Bool
  /// Evicts by the policy's rule until at least one object left; `victims` is replaced by them.
  func evict(collecting victims: inout [Victim])
  /// Takes over the state of `fresh`, a simulation built as this one was (same policy,
  /// parameters and admission): the cache is empty as at creation, and the instance a
  /// holder keeps in a constant stays the same. O(1); `fresh` is left with this one's state.
  func replaceState(with fresh: any CacheSimulation)
  /// Whether the policy's slots are stable (``PolicyLoopHooks/slotsAreStable``): victims
  /// carry them and ``slot(of:)`` finds a cached object's.
  var slotsAreStable: Bool { get }
  /// The policy's slot of cached `key`, or -1 (``PolicyLoopHooks/slot(of:)``).
  func slot(of key: UInt64) -> Int32
  /// Whether cached `key` has policy `slot` (``PolicyLoopHooks/holds(_:at:)``).
  func holds(_ key: UInt64, at slot: Int32) -> Bool
  /// Starts loading what a lookup of `key` will touch first, its hash bucket
  /// (``PolicyLoopHooks/prefetch(_:stage:)`` stage 1); changes nothing.
  func prefetch(_ key: UInt64)
  /// ``hit(_:)`` on the object at its policy `slot`, found without a lookup
  /// (``PolicyLoopHooks/hit(_:at:)``; stable slots only).
  func hit(_ request: Request, at slot: Int32)
  /// Serves a miss on a key known not to be cached (``PolicyLoopHooks/insertMissing(_:collecting:admission:)``):
  /// the outcome and the new object's slot (-1 when not inserted or without stable slots);
  /// `victims` is replaced by the objects evicted.
  func insertMissing(_ request: Request, collecting victims: inout [Victim]) -> (outcome: Outcome, slot: Int32)
}

/// A ``VictimSink`` that appends to an array (for callers that need each victim).
public struct ArrayVictimSink: VictimSink {
  public var victims: [Victim]
  /// Victims recorded so far: the first `recorded` elements (later ones are left from an
  /// earlier use, to be overwritten or cut off).
  @usableFromInline var recorded = 0

  @inlinable
  public init(_ victims: [Victim]) {
    self.victims = victims
    recorded = victims.count
  }

  @inlinable
  public mutating func record(_ victim: Victim) {
    if recorded < victims.count { victims[recorded] = victim } else { victims.append(victim) }
    recorded += 1
  }

  /// Runs `body` with a sink that fills `victims` from the start (so they hold exactly what
  /// `body` recorded); the array's storage moves into the sink and back, and elements are
  /// overwritten in place, so nothing is allocated once it has grown and a call that evicts
  /// as many objects as the last one shrinks nothing.
  @inlinable
  public static func filling<R>(_ victims: inout [Victim], _ body: (inout ArrayVictimSink) -> R) -> R {
    var sink = ArrayVictimSink([])
    swap(&sink.victims, &victims)
    sink.recorded = 0
    defer {
      if sink.recorded < sink.victims.count { sink.victims.removeLast(sink.victims.count - sink.recorded) }
      swap(&sink.victims, &victims)
    }
    return body(&sink)
  }
}

/// A ``CacheSimulation`` that runs policy `P` through its request loop
/// (``EvictionPolicy/replayLoop(_:range:counters:admission:outcomes:)``), specialised for `P`.
public final class PolicySimulation<P: EvictionPolicy & ~Copyable>: CacheSimulation, @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var policy: P
  @exclusivity(unchecked) @usableFromInline var _counters = MissCounters()
  /// The expiry rule of a `--ttl` run, or nil (objects never expire).
  public let timeToLive: TimeToLive?
  /// The admission policy deciding which missed objects enter, or nil (all may).
  public let admission: AdmissionGate?
  @exclusivity(unchecked) @usableFromInline var expiries = ExpiryTable()

  /// Wraps an empty policy instance; with `timeToLive`, replays expire objects by that rule;
  /// with `admission`, missed objects enter only when it admits them.
  public init(_ policy: consuming P, timeToLive: TimeToLive? = nil, admission: (any AdmissionPolicy)? = nil) {
    self.policy = policy
    self.timeToLive = timeToLive
    self.admission = admission.map(AdmissionGate.init)
  }

  public var counters: MissCounters {
    var counters = _counters
    counters.declined = admission?.declined ?? 0
    return counters
  }
  public var occupiedBytes: Int64 { policy.occupiedBytes }
  public var objectCount: Int { policy.objectCount }
  /// The policy's storage, plus about 16 B per slot of the expiry table in a `--ttl` run,
  /// plus the admission policy's.
  public var storageBytes: Int {
    policy.storageBytes + expiries.slotCount * 16 + (admission?.policy.storageBytes ?? 0)
  }

  public func resetCounters() {
    _counters = MissCounters()
    admission?.resetCounters()
  }

  public func serve(_ request: Request, collecting victims: inout [Victim]) -> Outcome {
    admission?.observe(request)
    return policy.serve(request, collecting: &victims, admission: admission)
  }

  public func hit(_ request: Request) {
    admission?.observe(request)
    policy.hit(request)
  }

  public func store(_ request: Request, collecting victims: inout [Victim]) -> Outcome {
    admission?.observe(request)
    return policy.store(request, collecting: &victims, admission: admission)
  }

  public func hit(_ request: Request, at slot: Int32) {
    admission?.observe(request)
    policy.hit(request, at: slot)
  }

  public func insertMissing(_ request: Request, collecting victims: inout [Victim]) -> (outcome: Outcome, slot: Int32) {
    admission?.observe(request)
    return policy.insertMissing(request, collecting: &victims, admission: admission)
  }

  public func remove(_ key: UInt64) -> Victim? { policy.remove(key) }

  public func contains(_ key: UInt64) -> Bool { policy.contains(key) }

  public func evict(collecting victims: inout [Victim]) { policy.evict(collecting: &victims) }

  public var slotsAreStable: Bool { P.slotsAreStable }

  public func slot(of key: UInt64) -> Int32 { policy.slot(of: key) }

  public func holds(_ key: UInt64, at slot: Int32) -> Bool { policy.holds(key, at: slot) }

  public func prefetch(_ key: UInt64) { policy.prefetch(key, stage: 1) }

  public func replaceState(with fresh: any CacheSimulation) {
    guard let fresh = fresh as? PolicySimulation<P> else {
      preconditionFailure("replaceState(with:) needs a simulation of \(P.descriptor.name)")
    }
    swap(&policy, &fresh.policy)
    swap(&expiries, &fresh.expiries)
    _counters = fresh._counters
    if let admission, let other = fresh.admission { admission.adopt(other) }
  }
  public func checkInvariants() throws(InvariantViolation) { try policy.checkInvariants() }

  public func replayServing(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>
  ) -> Int64 {
    precondition(timeToLive == nil, "replayServing(_:range:outcomes:) is for an engine tier, without --ttl")
    var evictions: Int64 = 0
    policy.replayServing(requests, range: range, outcomes: outcomes, evictions: &evictions, admission: admission)
    return evictions
  }

  public func replay(_ batch: RequestBatch, range: Range<Int>) {
    guard let timeToLive else {
      batch.withRequests { requests in
        policy.replay(requests, range: range, counters: &_counters, admission: admission)
      }
      return
    }
    batch.withRequests { requests in
      batch.withAttributes { attributes in
        policy.replayExpiring(
          requests, attributes: attributes, range: range, rule: timeToLive, table: &expiries, counters: &_counters,
          admission: admission)
      }
    }
  }
}

extension PolicySimulation: CustomReflectable where P: ~Copyable {
  /// A mirror that does not descend into the policy: reflecting a non-copyable stored value
  /// would trap (`dump`, test failure messages), so only the summary counters are shown.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "policy": P.descriptor.name, "occupiedBytes": occupiedBytes, "objectCount": objectCount,
        "counters": _counters,
      ], displayStyle: .class)
  }
}
