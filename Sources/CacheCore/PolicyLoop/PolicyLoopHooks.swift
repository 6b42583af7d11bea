/// The entry points of CacheLab's request loops into a policy: the replay loops (plain, for an
/// engine tier, with `--ttl`), the array-collecting calls an engine tier makes through
/// ``CacheSimulation``, stable slots and prefetching.
///
/// Internal to CacheLab's loops: a policy author implements ``EvictionPolicy`` (what a policy
/// means) and gets every hook from the defaults below, which are built from its operations.
/// They are requirements, not plain extension methods, so that each policy's conformance gets
/// its own copy specialised for it (a generic class calling extension methods would run them
/// unspecialised). A policy overrides a hook only to be faster, and the registry-driven tests
/// (`SlotStabilityTests`, `TierCallTests`, the allocation test) check that overrides agree.
public protocol PolicyLoopHooks: ~Copyable {
  /// Serves `requests[range]` in order, adding to `counters`, with `admission` (nil: none)
  /// deciding which missed objects are inserted. The default (shared by all policies) is
  /// the replay hot loop; being a requirement, each policy's conformance gets a copy
  /// specialised for it, with `handle` and the storage calls inlined.
  mutating func replay(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters,
    admission: AdmissionGate?)

  /// ``PolicyLoopHooks/replay(_:range:counters:admission:)`` for an engine's memory tier that keeps no
  /// metadata (``CacheSimulation/replayServing(_:range:outcomes:)``): each `get`'s outcome
  /// goes to `outcomes[index - range.lowerBound]` and evictions are added to `evictions`. A
  /// requirement, specialised per policy.
  mutating func replayServing(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>,
    evictions: inout Int64, admission: AdmissionGate?)

  /// ``PolicyLoopHooks/replay(_:range:counters:admission:)`` for a `--ttl` run: objects expire by `rule`,
  /// their expiry times kept in `table`. A requirement for the same reason: specialised per
  /// policy.
  mutating func replayExpiring(
    _ requests: UnsafeBufferPointer<Request>, attributes: UnsafePointer<RequestAttributes>?, range: Range<Int>,
    rule: TimeToLive, table: inout ExpiryTable, counters: inout MissCounters, admission: AdmissionGate?)

  /// ``EvictionPolicy/handle(_:collecting:admission:)``, ``EvictionPolicy/store(_:collecting:admission:)`` and `evict(collecting:)`
  /// with the victims collected in an array (emptied first, its storage reused), and a hit
  /// without victims: the calls an engine tier makes through ``CacheSimulation``.
  /// Requirements with shared defaults, like ``PolicyLoopHooks/replay(_:range:counters:admission:)``, so that
  /// each conformance gets a copy specialised for its policy (a generic class's methods would
  /// run unspecialised).
  mutating func serve(_ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?) -> Outcome
  mutating func store(_ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?) -> Outcome
  mutating func evict(collecting victims: inout [Victim])
  mutating func hit(_ request: Request)

  /// Whether every cached object keeps one slot (``PolicyLoopHooks/slot(of:)``) from insertion until it
  /// leaves, and leaves as a ``Victim`` carrying it: an engine tier then keeps each object's
  /// metadata in a buffer indexed by that slot, with no index of its own (one lookup per
  /// operation). False unless a policy declares it; the registry-driven tests check it.
  static var slotsAreStable: Bool { get }
  /// The slot of cached `key`, or -1 (always -1 without ``PolicyLoopHooks/slotsAreStable``). One lookup.
  func slot(of key: UInt64) -> Int32
  /// Whether cached `key` has `slot`: ``PolicyLoopHooks/slot(of:)`` equals it. A policy may answer from
  /// the slot alone, without the lookup (an engine's walk over its slots asks this per slot).
  func holds(_ key: UInt64, at slot: Int32) -> Bool
  /// ``hit(_:)`` for the cached object at `slot` (its ``PolicyLoopHooks/slot(of:)``) without looking it up
  /// again: the engine's hit once it has found the slot. Only called with stable slots; the
  /// default is ``hit(_:)``.
  mutating func hit(_ request: Request, at slot: Int32)
  /// Caches the absent object of `request`, which fits, as ``EvictionPolicy/insert(_:)`` does, and returns
  /// its slot (-1 without stable slots). The default inserts, then looks the slot up.
  mutating func insertReturningSlot(_ request: Request) -> Int32
  /// Serves a miss on a key known not to be cached, as ``PolicyLoopHooks/serve(_:collecting:admission:)``
  /// would, and returns the outcome with the new object's slot (-1 when not inserted or
  /// without stable slots). With stable slots the default skips the lookup ``EvictionPolicy/access(_:)``
  /// would make (such a policy's `access` of an absent key changes nothing), so a tier's
  /// miss costs no lookup beyond its own.
  mutating func insertMissing(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> (outcome: Outcome, slot: Int32)

  /// Hints that `key` will be looked up soon: stage 1 loads its hash bucket, stage 2 (a few
  /// requests later) the entry the bucket points to, stage 3 (later still) what a hit on it
  /// will touch next. Optional; the default does nothing.
  func prefetch(_ key: UInt64, stage: Int)
}

extension EvictionPolicy where Self: ~Copyable {
  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) {}

  @inlinable
  public static var slotsAreStable: Bool { false }

  @inlinable
  public func slot(of key: UInt64) -> Int32 { -1 }

  @inlinable
  public func holds(_ key: UInt64, at slot: Int32) -> Bool { self.slot(of: key) == slot }

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
      while occupiedBytes + request.size > capacity { evict(collecting: &sink) }
      return (.inserted, insertReturningSlot(request))
    }
  }

  @inlinable
  public mutating func serve(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> Outcome {
    // One copy per policy for both cases: an engine's per-request work dwarfs the branch.
    ArrayVictimSink.filling(&victims) { sink in
      handle(request, collecting: &sink, admission: OptionalAdmissionGate(admission))
    }
  }

  @inlinable
  public mutating func store(
    _ request: Request, collecting victims: inout [Victim], admission: AdmissionGate?
  ) -> Outcome {
    ArrayVictimSink.filling(&victims) { sink in
      store(request, collecting: &sink, admission: OptionalAdmissionGate(admission))
    }
  }

  @inlinable
  public mutating func evict(collecting victims: inout [Victim]) {
    ArrayVictimSink.filling(&victims) { sink in
      if objectCount > 0 { evict(collecting: &sink) }
    }
  }

  @inlinable
  public mutating func hit(_ request: Request) {
    // A hit evicts nothing; EvictionCounter (not IgnoringVictims) reuses the replay loop's copy.
    var ignored = EvictionCounter()
    _ = handle(request, collecting: &ignored)
  }

  /// A `put` replaces the object (not counted as a request), a `delete` removes it; event
  /// and origin rows do not concern a plain policy.
  @inlinable
  public mutating func replayNonGet<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) {
    switch request.operation {
    case .put:
      _ = store(request, collecting: &victims, admission: admission)
    case .delete:
      _ = remove(request.key)
    default:
      break
    }
  }

  /// The replay hot loop: one ``EvictionPolicy/handle(_:collecting:admission:)`` per `get`, no allocation;
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

  /// The one request loop of every policy run and memory-only engine: ``PolicyLoopHooks/replay(_:range:counters:admission:)``
  /// and ``PolicyLoopHooks/replayServing(_:range:outcomes:evictions:admission:)`` for one kind of admission
  /// check and of outcome report.
  @inlinable
  public mutating func replayLoop<Gate: AdmissionCheck, Outcomes: ReplayOutcomes>(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters, admission: Gate,
    outcomes: inout Outcomes
  ) {
    // Two copies of the loop: staged prefetching pays once the tables outgrow a core's
    // private cache, and slows a cache that fits in it (``PrivateCacheFit``).
    if objectCount > PrivateCacheFit.objects {
      replayLoop(requests, range: range, counters: &counters, admission: admission, outcomes: &outcomes, deep: true)
    } else {
      replayLoop(requests, range: range, counters: &counters, admission: admission, outcomes: &outcomes, deep: false)
    }
  }

  /// ``replayLoop(_:range:counters:admission:outcomes:)`` with staged prefetching (`deep`: the
  /// bucket 16 requests ahead, the first entry 8, a hit's neighbours 4) or with the bucket only
  /// (8 ahead). Inlined twice, once for each.
  @inlinable @inline(__always)
  public mutating func replayLoop<Gate: AdmissionCheck, Outcomes: ReplayOutcomes>(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, counters: inout MissCounters, admission: Gate,
    outcomes: inout Outcomes, deep: Bool
  ) {
    var victims = EvictionCounter()
    var gets = counters.requests
    var getBytes = counters.requestBytes
    var misses = counters.misses
    var missBytes = counters.missBytes
    var rejected = counters.rejected
    let end = range.upperBound
    for index in range {
      if deep {
        if index &+ 16 < end { prefetch(requests[index &+ 16].key, stage: 1) }
        if index &+ 8 < end { prefetch(requests[index &+ 8].key, stage: 2) }
        if index &+ 4 < end { prefetch(requests[index &+ 4].key, stage: 3) }
      } else if index &+ 8 < end {
        prefetch(requests[index &+ 8].key, stage: 1)
      }
      let request = requests[index]
      if request.operation != .get {
        replayNonGet(request, collecting: &victims, admission: admission)
        continue
      }
      gets &+= 1
      getBytes &+= request.size
      admission.observe(request)
      let outcome = handle(request, collecting: &victims, admission: admission)
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
}
