/// An admission policy: decides whether an object that missed may enter the cache at all
/// (libCacheSim's admissioners), independently of the eviction policy it guards.
///
/// One instance per simulated cache, created with the cache's capacity; a class, because the
/// cache consults it through an ``AdmissionGate`` from inside the policy's generic code. The
/// gate asks ``admits(_:)`` on a miss, before the policy's own size check (libCacheSim's
/// `cache_can_insert_default`), and, when ``observesRequests`` is true, shows it every request
/// first (libCacheSim's `update`, which AdaptSize uses to learn).
public protocol AdmissionPolicy: AnyObject, SendableMetatype {
  /// Name, parameters and documentation; the registry key is `descriptor.name`.
  static var descriptor: PolicyDescriptor { get }

  /// A fresh admission policy for a cache of `capacity` bytes (or objects).
  ///
  /// - Throws: ``ConfigurationError`` when the parameters are inconsistent.
  init(capacity: Int64, parameters: Parameters, context: PolicyContext) throws(ConfigurationError)

  /// Whether ``observe(_:)`` does anything; when false it is never called.
  static var observesRequests: Bool { get }

  /// Sees one request (hit or miss) before the cache serves it.
  func observe(_ request: Request)

  /// Whether the object of `request`, which missed, may be inserted.
  func admits(_ request: Request) -> Bool

  /// Bytes of memory the admission policy's own structures hold (as
  /// ``EvictionPolicy/storageBytes``). O(1).
  var storageBytes: Int { get }
}

extension AdmissionPolicy {
  public static var observesRequests: Bool { false }
  public func observe(_ request: Request) {}
}

/// What a policy's ``EvictionPolicy/handle(_:collecting:admission:)`` asks before inserting a
/// missed object. Generic, so that a cache without admission (``AdmitAll``) compiles to the
/// policy's plain code.
public protocol AdmissionCheck {
  /// Whether the object of `request`, which missed, may be inserted.
  func admits(_ request: Request) -> Bool
  /// Shows the check one request before it is served.
  func observe(_ request: Request)
}

/// No admission policy: every missed object may be inserted. Free.
@frozen
public struct AdmitAll: AdmissionCheck {
  @inlinable public init() {}
  @inlinable public func admits(_ request: Request) -> Bool { true }
  @inlinable public func observe(_ request: Request) {}
}

/// An ``AdmissionGate`` or none, decided per call: one loop body for both cases, for loops
/// whose other per-request work (a `--ttl` run's expiry lookup) dwarfs a predictable branch,
/// so that each policy compiles one copy of them instead of two. A branch per call.
@frozen
public struct OptionalAdmissionGate: AdmissionCheck {
  @usableFromInline let gate: AdmissionGate?
  @inlinable public init(_ gate: AdmissionGate?) { self.gate = gate }
  @inlinable public func admits(_ request: Request) -> Bool { gate?.admits(request) ?? true }
  @inlinable public func observe(_ request: Request) { gate?.observe(request) }
}

/// The admission policy of one simulated cache, with the count of objects it refused. One
/// dynamic call per miss (and per request for a policy that observes requests).
///
/// Used by one thread at a time, like the simulation that owns it.
public final class AdmissionGate: AdmissionCheck, @unchecked Sendable {
  /// The admission policy consulted (replaced by ``adopt(_:)``).
  @exclusivity(unchecked) public private(set) var policy: any AdmissionPolicy
  @exclusivity(unchecked) @usableFromInline private(set) var observes: Bool
  /// Missed objects refused since creation or the last ``resetCounters()``.
  @exclusivity(unchecked) public private(set) var declined: Int64 = 0

  public init(_ policy: any AdmissionPolicy) {
    self.policy = policy
    observes = type(of: policy).observesRequests
  }

  public func admits(_ request: Request) -> Bool {
    if policy.admits(request) { return true }
    declined &+= 1
    return false
  }

  @inlinable
  public func observe(_ request: Request) {
    if observes { policy.observe(request) }
  }

  /// Zeroes ``declined`` (the end of warm-up); the policy's learned state stays.
  public func resetCounters() { declined = 0 }

  /// Takes over `fresh`'s policy and count (a gate built as this one was: the state of a new process).
  public func adopt(_ fresh: AdmissionGate) {
    policy = fresh.policy
    observes = fresh.observes
    declined = fresh.declined
  }
}
