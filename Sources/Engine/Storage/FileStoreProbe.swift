import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file store's own operations one at a time, each timed with the clock the file backend
/// uses, for `cachelab calibrate`: an atomic write (temporary file, fsync, rename, folder
/// fsync), a verified read, a header date update, a delete and the start-up scan. Objects
/// are plain data of a given size under keys the caller picks. Holds the store's lock.
public final class FileStoreProbe {
  private let store: FileStore

  /// A probe on a file store in `directory` (created if needed, locked while the probe lives).
  public init(directory: String) throws(FileError) {
    store = try FileStore(directory: directory, namespaces: false)
  }

  private static func metadata(_ key: UInt64, size: Int64) -> EntryMetadata {
    var attributes = RequestAttributes()
    attributes.ttl = -1
    return EntryMetadata(
      request: Request(time: 0, key: key, size: size), attributes: attributes, cost: size, now: 0, latency: 0)
  }

  /// Writes object `key` of `size` bytes; its time, µs.
  public func write(_ key: UInt64, size: Int64) throws(FileError) -> Int64 {
    try store.write(key, Self.metadata(key, size: size))
  }

  /// Reads and verifies object `key`; its time, µs.
  ///
  /// - Throws: `FileError` when the object is missing or fails its checks.
  public func read(_ key: UInt64, size: Int64) throws(FileError) -> Int64 {
    guard let micros = try store.read(key, size: size, contentClass: .data) else {
      throw FileError(path: store.path(key, .data), "the object written for calibration cannot be read back")
    }
    return micros
  }

  /// Rewrites object `key`'s header dates in place; its time, µs.
  public func touch(_ key: UInt64, size: Int64) throws(FileError) -> Int64 {
    var metadata = Self.metadata(key, size: size)
    metadata.accessedAt = 1
    let started = MonotonicClock.microseconds()
    try store.updateDates(key, metadata)
    return MonotonicClock.microseconds() - started
  }

  /// Deletes object `key`; its time, µs.
  public func delete(_ key: UInt64, size: Int64) throws(FileError) -> Int64 {
    let started = MonotonicClock.microseconds()
    try store.delete(key, Self.metadata(key, size: size))
    return MonotonicClock.microseconds() - started
  }

  /// The start-up scan: every file listed, read and verified. Objects found and the time, µs.
  public func scan() throws(FileError) -> (objects: Int, micros: Int64) {
    let started = MonotonicClock.microseconds()
    let found = try store.recover()
    return (found.count, MonotonicClock.microseconds() - started)
  }

  /// Whether ``dropPages(_:)`` can evict a file's cached pages here (Linux `posix_fadvise`).
  public static var canDropPages: Bool {
    #if os(Linux)
      return true
    #else
      return false
    #endif
  }

  /// Asks the kernel to drop object `key`'s cached pages, so the next read comes from the
  /// device (the file was fsynced, so its pages are clean); false where that cannot be done.
  public func dropPages(_ key: UInt64) -> Bool {
    #if os(Linux)
      let fd = open(store.path(key, .data), O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return false }
      defer { close(fd) }
      return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0
    #else
      return false
    #endif
  }
}
