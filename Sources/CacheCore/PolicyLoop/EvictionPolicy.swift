/// An eviction policy: decides which cached object leaves when room is needed.
///
/// Policies are non-copyable structs that own their storage (usually a ``SlotArena``), so
/// a cache can never be duplicated by accident and all mutation is statically exclusive.
/// Its request loop (every cache runs one) drives it through ``handle(_:victims:admission:)``,
/// whose default is the classic template (libCacheSim's `cache_get_base`):
///
///     if access(request) -> hit
///     else if the admission policy refuses it -> miss, not inserted
///     else if size > capacity -> miss, not inserted
///     else: evict() until size fits, insert(request) -> miss
///
/// A policy that decides admission or eviction differently overrides `handle`, asking
/// `admission` where it would insert a missed object.
///
/// Size accounting follows the peer simulator: capacity counts object bytes only (or
/// objects, with every size 1), and a hit does not change the stored size.
public protocol EvictionPolicy: ~Copyable, SendableMetatype {
  /// Name, parameters and documentation; the registry key is `descriptor.name`.
  static var descriptor: PolicyDescriptor { get }

  /// Creates an empty cache holding at most `capacity` bytes (or objects).
  ///
  /// - Throws: ``ConfigurationError`` when the parameters are inconsistent.
  init(capacity: Int64, parameters: Parameters, context: PolicyContext) throws(ConfigurationError)

  /// Maximum total size of the cached objects.
  var capacity: Int64 { get }
  /// Total size of the cached objects (ghost entries excluded).
  var occupiedBytes: Int64 { get }
  /// Number of cached objects (ghost entries excluded).
  var objectCount: Int { get }
  /// Bytes of memory the policy's own structures hold: arenas with their hash buckets, heaps
  /// and sketches at their allocated sizes (they never shrink, so this is also their peak),
  /// Swift arrays at their element counts (their capacity depends on the allocator, so it
  /// would not be reproducible). O(1).
  var storageBytes: Int { get }

  /// Looks `request.key` up; on a hit updates the policy's state and returns true. A miss
  /// may record state (e.g. a ghost hit) that the following ``insert(_:)`` uses.
  mutating func access(_ request: Request) -> Bool
  /// Caches the object of `request`, which is absent and fits in the free space.
  mutating func insert(_ request: Request)
  /// Evicts by the policy's rule until at least one object has left the cache, reporting
  /// every object that left to `victims` (a policy may move objects between its queues on
  /// the way). The cache is not empty.
  mutating func evict<Sink: VictimSink>(into victims: inout Sink)
  /// Removes `key` if cached (not counted as an eviction) and returns what it held.
  mutating func remove(_ key: UInt64) -> Victim?
  /// Whether `key` is cached, without touching any state.
  func contains(_ key: UInt64) -> Bool

  /// Serves one request: hit, or miss with evictions reported to `victims`. A missed object
  /// is inserted only if `admission` admits it (asked before the size check, as libCacheSim
  /// does); otherwise the outcome is `.rejected`.
  mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome

  /// Stores the object of `request` whether or not it is cached (a `put`, or an engine
  /// storing a fetched response), if `admission` admits it. The default removes a cached
  /// copy and inserts the object as new; a policy whose library updates a cached object in
  /// place overrides it. Returns `.inserted`, or `.rejected` when the policy did not keep the
  /// object.
  mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome

  /// Serves `requests[range]` in order, adding to `counters`, with `admission` (nil: none)
  /// deciding which missed objects are inserted. The default (shared by all policies) is
  /// the replay hot loop; being a requirement, each policy's conformance gets a copy
  /// specialised for it, with `handle` and the storage calls inlined.
  mutating func replay(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters,
    admission: AdmissionGate?)

  /// ``replay(_:range:counters:admission:)`` for an engine's memory tier that keeps no
  /// metadata (``CacheSimulation/replayServing(_:range:outcomes:)``): each `get`'s outcome
  /// goes to `outcomes[index - range.lowerBound]` and evictions are added to `evictions`. A
  /// requirement, specialised per policy.
  mutating func replayServing(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>,
    evictions: inout Int64, admission: AdmissionGate?)

  /// ``replay(_:range:counters:admission:)`` for a `--ttl` run: objects expire by `rule`,
  /// their expiry times kept in `table`. A requirement for the same reason: specialised per
  /// policy.
  mutating func replayExpiring(
    _ requests: UnsafeBufferPointer<Request>, attributes: UnsafePointer<RequestAttributes>?, range: Range<Int>,
    rule: TimeToLive, table: inout ExpiryTable, counters: inout MissCounters, admission: AdmissionGate?)

  /// ``handle(_:victims:admission:)``, ``store(_:victims:admission:)`` and ``evict(into:)``
  /// with the victims collected in an array (emptied first, its storage reused), and a hit
  /// without victims: the calls an engine tier makes through ``CacheSimulation``.
  /// Requirements with shared defaults, like ``replay(_:range:counters:admission:)``, so that
  /// each conformance gets a copy specialised for its policy (a generic class's methods would
  /// run unspecialised).
  mutating func serve(_ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?) -> Outcome
  mutating func store(_ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?) -> Outcome
  mutating func evict(collecting victims: inout [Victim])
  mutating func hit(_ request: Request)

  /// Whether every cached object keeps one slot (``slot(of:)``) from insertion until it
  /// leaves, and leaves as a ``Victim`` carrying it: an engine tier then keeps each object's
  /// metadata in a buffer indexed by that slot, with no index of its own (one lookup per
  /// operation). False unless a policy declares it; the registry-driven tests check it.
  static var slotsAreStable: Bool { get }
  /// The slot of cached `key`, or -1 (always -1 without ``slotsAreStable``). One lookup.
  func slot(of key: UInt64) -> Int32
  /// ``hit(_:)`` for the cached object at `slot` (its ``slot(of:)``) without looking it up
  /// again: the engine's hit once it has found the slot. Only called with stable slots; the
  /// default is ``hit(_:)``.
  mutating func hit(_ request: Request, at slot: Int32)
  /// Caches the absent object of `request`, which fits, as ``insert(_:)`` does, and returns
  /// its slot (-1 without stable slots). The default inserts, then looks the slot up.
  mutating func insertReturningSlot(_ request: Request) -> Int32
  /// Serves a miss on a key known not to be cached, as ``serve(_:collecting:admission:)``
  /// would, and returns the outcome with the new object's slot (-1 when not inserted or
  /// without stable slots). With stable slots the default skips the lookup ``access(_:)``
  /// would make (such a policy's `access` of an absent key changes nothing), so a tier's
  /// miss costs no lookup beyond its own.
  mutating func insertMissing(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> (outcome: Outcome, slot: Int32)

  /// Hints that `key` will be looked up soon: stage 1 loads its hash bucket, stage 2 (a few
  /// requests later) the entry the bucket points to. Optional; the default does nothing.
  func prefetch(_ key: UInt64, stage: Int)

  /// Verifies every internal invariant (list links, byte totals, capacity).
  ///
  /// - Complexity: O(cached objects); for tests and debug runs.
  func checkInvariants() throws(InvariantViolation)
}

extension EvictionPolicy where Self: ~Copyable {
  /// The template: hit; or reject when not admitted or larger than the cache; or evict until
  /// it fits and insert.
  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity {
      evict(into: &victims)
    }
    insert(request)
    return .inserted
  }

  /// Removes a cached copy, then serves the request as a miss.
  @inlinable
  public mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) -> Outcome {
    _ = remove(request.key)
    // Just removed, so never a hit: `.inserted` or `.rejected`, as `handle` reports it.
    return handle(request, victims: &victims, admission: admission)
  }

  /// ``handle(_:victims:admission:)`` without an admission policy.
  @inlinable
  public mutating func handle<Sink: VictimSink>(_ request: Request, victims: inout Sink) -> Outcome {
    handle(request, victims: &victims, admission: AdmitAll())
  }

  /// ``store(_:victims:admission:)`` without an admission policy.
  @inlinable
  public mutating func store<Sink: VictimSink>(_ request: Request, victims: inout Sink) -> Outcome {
    store(request, victims: &victims, admission: AdmitAll())
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) {}

  @inlinable
  public static var slotsAreStable: Bool { false }

  @inlinable
  public func slot(of key: UInt64) -> Int32 { -1 }

  @inlinable
  public mutating func hit(_ request: Request, at slot: Int32) { hit(request) }

  @inlinable
  public mutating func insertReturningSlot(_ request: Request) -> Int32 {
    insert(request)
    return Self.slotsAreStable ? slot(of: request.key) : -1
  }

  @inlinable
  public mutating func insertMissing(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> (outcome: Outcome, slot: Int32) {
    guard Self.slotsAreStable else { return (serve(request, collecting: &victims, admission: admission), -1) }
    return ArrayVictimSink.filling(&victims) { sink in
      if let admission, !admission.admits(request) { return (.rejected, -1) }
      if request.size > capacity { return (.rejected, -1) }
      while occupiedBytes + request.size > capacity { evict(into: &sink) }
      return (.inserted, insertReturningSlot(request))
    }
  }

  @inlinable
  public mutating func serve(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> Outcome {
    ArrayVictimSink.filling(&victims) { sink in
      if let admission { return handle(request, victims: &sink, admission: admission) }
      return handle(request, victims: &sink, admission: AdmitAll())
    }
  }

  @inlinable
  public mutating func store(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> Outcome {
    ArrayVictimSink.filling(&victims) { sink in
      if let admission { return store(request, victims: &sink, admission: admission) }
      return store(request, victims: &sink, admission: AdmitAll())
    }
  }

  @inlinable
  public mutating func evict(collecting victims: inout [Victim]) {
    ArrayVictimSink.filling(&victims) { sink in
      if objectCount > 0 { evict(into: &sink) }
    }
  }

  @inlinable
  public mutating func hit(_ request: Request) {
    var ignored = IgnoringVictims()
    _ = handle(request, victims: &ignored)
  }

  /// A `put` replaces the object (not counted as a request), a `delete` removes it; event
  /// and origin rows do not concern a plain policy.
  @inlinable
  public mutating func replayNonGet<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, victims: inout Sink, admission: Gate
  ) {
    switch request.operation {
    case .put:
      _ = store(request, victims: &victims, admission: admission)
    case .delete:
      _ = remove(request.key)
    default:
      break
    }
  }

  /// The replay hot loop: one ``handle(_:victims:admission:)`` per `get`, no allocation;
  /// without admission, the policy's code with the admission check compiled away.
  @inlinable
  public mutating func replay(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters,
    admission: AdmissionGate?
  ) {
    var outcomes = DiscardedOutcomes()
    if let admission {
      replayLoop(requests, range: range, counters: &counters, admission: admission, outcomes: &outcomes)
    } else {
      replayLoop(requests, range: range, counters: &counters, admission: AdmitAll(), outcomes: &outcomes)
    }
  }

  @inlinable
  public mutating func replayServing(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>,
    evictions: inout Int64, admission: AdmissionGate?
  ) {
    var recorded = RecordedOutcomes(outcomes, first: range.lowerBound)
    var counters = MissCounters()
    if let admission {
      replayLoop(requests, range: range, counters: &counters, admission: admission, outcomes: &recorded)
    } else {
      replayLoop(requests, range: range, counters: &counters, admission: AdmitAll(), outcomes: &recorded)
    }
    evictions &+= counters.evictions
  }

  /// The one request loop of every policy run and memory-only engine: ``replay(_:range:counters:admission:)``
  /// and ``replayServing(_:range:outcomes:evictions:admission:)`` for one kind of admission
  /// check and of outcome report.
  @inlinable
  public mutating func replayLoop<Gate: AdmissionCheck, Outcomes: ReplayOutcomes>(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters, admission: Gate,
    outcomes: inout Outcomes
  ) {
    var victims = EvictionCounter()
    var gets = counters.requests
    var getBytes = counters.requestBytes
    var misses = counters.misses
    var missBytes = counters.missBytes
    var rejected = counters.rejected
    let end = range.upperBound
    for index in range {
      if index &+ 8 < end { prefetch(requests[index &+ 8].key, stage: 1) }
      let request = requests[index]
      if request.operation != .get {
        replayNonGet(request, victims: &victims, admission: admission)
        continue
      }
      gets &+= 1
      getBytes &+= request.size
      admission.observe(request)
      let outcome = handle(request, victims: &victims, admission: admission)
      outcomes.record(outcome, at: index)
      switch outcome {
      case .hit:
        break
      case .inserted:
        misses &+= 1
        missBytes &+= request.size
      case .rejected:
        misses &+= 1
        missBytes &+= request.size
        rejected &+= 1
      }
    }
    counters.requests = gets
    counters.requestBytes = getBytes
    counters.misses = misses
    counters.missBytes = missBytes
    counters.rejected = rejected
    counters.evictions &+= victims.count
  }

  /// Checks the bookkeeping every policy shares: occupancy within capacity.
  public func checkOccupancy() throws(InvariantViolation) {
    guard occupiedBytes >= 0, occupiedBytes <= capacity else {
      throw InvariantViolation("occupied \(occupiedBytes) outside 0...\(capacity)")
    }
    guard objectCount >= 0, objectCount > 0 || occupiedBytes == 0 else {
      throw InvariantViolation("\(objectCount) objects occupy \(occupiedBytes)")
    }
  }
}

/// The result of serving one request.
@frozen
public enum Outcome: UInt8, Sendable {
  /// The object was cached.
  case hit
  /// A miss; the object was inserted (after any evictions).
  case inserted
  /// A miss; the object is larger than the whole cache and was not inserted.
  case rejected
}

/// What the request loop does with each `get`'s outcome: a plain policy run only counts
/// them (``DiscardedOutcomes``); an engine's memory tier records them for the engine to
/// account (``RecordedOutcomes``).
public protocol ReplayOutcomes {
  /// Called with the outcome of the `get` at `index`. O(1).
  mutating func record(_ outcome: Outcome, at index: Int)
}

/// The outcomes of a plain policy run: only counted, in ``MissCounters``.
@frozen
public struct DiscardedOutcomes: ReplayOutcomes {
  @inlinable public init() {}
  @inlinable public mutating func record(_ outcome: Outcome, at index: Int) {}
}

/// The outcomes of an engine's memory tier, written to a buffer indexed by row.
@frozen
public struct RecordedOutcomes: ReplayOutcomes {
  /// Where row `index`'s outcome goes: `buffer[index - first]`.
  @usableFromInline let buffer: UnsafeMutablePointer<Outcome>
  @usableFromInline let first: Int

  @inlinable public init(_ buffer: UnsafeMutablePointer<Outcome>, first: Int) {
    self.buffer = buffer
    self.first = first
  }
  @inlinable public mutating func record(_ outcome: Outcome, at index: Int) { buffer[index &- first] = outcome }
}

/// Receives the objects a policy evicts while serving a request.
public protocol VictimSink {
  /// Called once per evicted object, in eviction order.
  mutating func record(_ victim: Victim)
}

/// A ``VictimSink`` that discards what it is given.
@frozen
public struct IgnoringVictims: VictimSink {
  @inlinable public init() {}
  @inlinable public mutating func record(_ victim: Victim) {}
}

/// A ``VictimSink`` that only counts evictions.
@frozen
public struct EvictionCounter: VictimSink {
  /// Number of evictions recorded.
  public var count: Int64 = 0
  /// Total size of the evicted objects.
  public var bytes: Int64 = 0

  @inlinable
  public init() {}

  @inlinable
  public mutating func record(_ victim: Victim) {
    count &+= 1
    bytes &+= victim.size
  }
}

/// Run-wide settings a policy may use besides its own parameters.
public struct PolicyContext: Sendable, Equatable {
  /// Seed for randomised policies; the same seed replays identically.
  public var seed: UInt64
  /// Whether every object has size 1 and the capacity counts objects (some policies size
  /// internal structures differently then, as their reference implementations do).
  public var objectMode: Bool

  public init(seed: UInt64 = 0, objectMode: Bool = false) {
    self.seed = seed
    self.objectMode = objectMode
  }
}

/// A ``VictimSink`` that counts what passes through to another sink.
@frozen
public struct CountingSink<Base: VictimSink>: VictimSink {
  /// The sink that receives every victim.
  public var base: Base
  /// Victims seen so far.
  public var count = 0

  @inlinable
  public init(_ base: Base) {
    self.base = base
  }

  @inlinable
  public mutating func record(_ victim: Victim) {
    count += 1
    base.record(victim)
  }
}
