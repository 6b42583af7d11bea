/// An eviction policy: decides which cached object leaves when room is needed.
///
/// Policies are non-copyable structs that own their storage (usually a ``SlotArena``), so
/// a cache can never be duplicated by accident and all mutation is statically exclusive.
/// Its request loop (every cache runs one) drives it through ``handle(_:collecting:admission:)``,
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
///
/// This protocol is what a policy means; the request loops reach it through
/// ``PolicyLoopHooks``, whose every requirement has a default built from the operations here.
public protocol EvictionPolicy: PolicyLoopHooks, ~Copyable, SendableMetatype {
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
  mutating func evict<Sink: VictimSink>(collecting victims: inout Sink)
  /// Removes `key` if cached (not counted as an eviction) and returns what it held.
  mutating func remove(_ key: UInt64) -> Victim?
  /// Whether `key` is cached, without touching any state.
  func contains(_ key: UInt64) -> Bool

  /// Serves one request: hit, or miss with evictions reported to `victims`. A missed object
  /// is inserted only if `admission` admits it (asked before the size check, as libCacheSim
  /// does); otherwise the outcome is `.rejected`.
  mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome

  /// Stores the object of `request` whether or not it is cached (a `put`, or an engine
  /// storing a fetched response), if `admission` admits it. The default removes a cached
  /// copy and inserts the object as new; a policy whose library updates a cached object in
  /// place overrides it. Returns `.inserted`, or `.rejected` when the policy did not keep the
  /// object.
  mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome

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
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity {
      evict(collecting: &victims)
    }
    insert(request)
    return .inserted
  }

  /// Removes a cached copy, then serves the request as a miss.
  @inlinable
  public mutating func store<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    _ = remove(request.key)
    // Just removed, so never a hit: `.inserted` or `.rejected`, as `handle` reports it.
    return handle(request, collecting: &victims, admission: admission)
  }

  /// ``handle(_:collecting:admission:)`` without an admission policy.
  @inlinable
  public mutating func handle<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) -> Outcome {
    handle(request, collecting: &victims, admission: AdmitAll())
  }

  /// ``store(_:collecting:admission:)`` without an admission policy.
  @inlinable
  public mutating func store<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) -> Outcome {
    store(request, collecting: &victims, admission: AdmitAll())
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
