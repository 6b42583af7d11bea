#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few system calls CacheLab makes directly, each retried on `EINTR`, spelled once so
/// that no caller needs a module-qualified libc name (which would tie it to one platform).
public enum POSIXIO {
  /// Writes every byte of `bytes` to `descriptor`; returns the `errno` of a failure, or nil.
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += count
    }
    return nil
  }

  /// One `read(2)` of up to `count` bytes into `buffer`: the byte count (0 at the end), or
  /// the negated `errno` of a failure.
  public static func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
      let done = read(descriptor, buffer, count)
      if done >= 0 { return done }
      if errno != EINTR { return -Int(errno) }
    }
  }

  /// Ends the process with `status` at once.
  public static func exitProcess(_ status: Int32) -> Never { exit(status) }

  /// Nanoseconds of a monotonic clock (for measuring durations, never inside the engine).
  public static func monotonicNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }
}
