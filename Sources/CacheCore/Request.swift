/// One request of a trace, as every reader produces it and every policy sees it.
///
/// A trivial value type (40 bytes) so batches of requests live in one flat buffer and
/// replay never allocates per request.
@frozen
public struct Request: Equatable, Sendable {
  /// Trace time in microseconds (0 when the trace carries no time).
  public var time: Int64
  /// Object identifier (numeric ids as-is, string ids hashed with ``KeyHash``).
  public var key: UInt64
  /// Object size in bytes (1 in object mode).
  public var size: Int64
  /// 1-based index of the next request to the same object, ``Request/never`` if there is
  /// none, or ``Request/unknown`` if the trace does not say.
  public var nextAccess: Int64
  /// What the request asks for.
  public var operation: Operation

  /// Trace times are below 2^62 µs (about 146,000 years), so a time plus a duration (below
  /// 2^61 µs) never overflows.
  @inlinable public static var timeLimit: Int64 { 1 << 62 }

  /// The largest object size CacheLab accepts, 2^48 bytes (256 TiB): larger sizes are input
  /// errors, so no sum of sizes can wrap.
  @inlinable public static var maximumSize: Int64 { 1 << 48 }
  /// The largest total of a trace's request sizes, 2^62 bytes: every byte counter (a subset of
  /// the requests, plus header bytes) stays below Int64.max.
  @inlinable public static var maximumTotalBytes: Int64 { 1 << 62 }

  /// `nextAccess` value meaning the object is never requested again.
  @inlinable public static var never: Int64 { .max }
  /// `nextAccess` value meaning the trace does not carry next-access information.
  @inlinable public static var unknown: Int64 { -1 }

  @inlinable
  public init(
    time: Int64 = 0, key: UInt64, size: Int64 = 1, nextAccess: Int64 = Request.unknown,
    operation: Operation = .get
  ) {
    self.time = time
    self.key = key
    self.size = size
    self.nextAccess = nextAccess
    self.operation = operation
  }

  /// The kind of a request.
  @frozen
  public enum Operation: UInt8, Sendable, CaseIterable {
    /// A read: a hit if cached, otherwise a miss that inserts the object.
    case get
    /// An explicit store of the object.
    case put
    /// A removal of the object.
    case delete
    /// A lifecycle event (memory warning, background, launch, ...); not a request.
    case event
    /// The origin changed the object (new version) without a client request.
    case origin
  }
}

/// An object removed from a cache, returned by value so a caller can count or demote it.
@frozen
public struct Victim: Equatable, Sendable {
  public var key: UInt64
  public var size: Int64
  /// The slot the object held in its policy's arena (-1: not reported), which an engine tier
  /// uses to find its metadata when the policy's slots are stable
  /// (``PolicyLoopHooks/slotsAreStable``).
  public var slot: Int32

  @inlinable
  public init(key: UInt64, size: Int64, slot: Int32 = -1) {
    self.key = key
    self.size = size
    self.slot = slot
  }
}

/// Microseconds per second, the unit conversion for ``Request/time``.
public let microsecondsPerSecond: Int64 = 1_000_000
