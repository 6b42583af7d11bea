#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic wall-clock time for measuring simulator speed (never used inside the engine,
/// whose time is trace time).
public enum Stopwatch {
  /// Nanoseconds since an arbitrary fixed point.
  @inline(__always)
  public static func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }
}
