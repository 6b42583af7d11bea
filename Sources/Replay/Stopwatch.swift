import CacheCore

/// Monotonic wall-clock time for measuring simulator speed (never used inside the engine,
/// whose time is trace time).
public enum Stopwatch {
  /// Nanoseconds since an arbitrary fixed point.
  @inline(__always)
  public static func nanoseconds() -> UInt64 { UInt64(POSIXIO.monotonicNanoseconds()) }
}
