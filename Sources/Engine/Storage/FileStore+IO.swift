import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Atomic I/O: write to a temporary file, fsync, rename, fsync the folder; verified reads;
/// in-place date updates; deletes. Every operation is timed.
extension FileStore {
  func write(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) -> Int64 {
    let started = MonotonicClock.microseconds()
    let target = path(key, metadata.contentClass)
    var random = SystemRandomNumberGenerator()
    let temporary =
      folder(metadata.contentClass) + "/.tmp-" + Self.fileName(key) + "-\(getpid())-"
      + String(random.next() >> 1, radix: 36)
    fillPattern(key, metadata.version)
    let header = Self.header(key, metadata, checksum: patternChecksum(metadata.size))
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(path: temporary, "cannot create: \(systemErrorMessage(currentErrno))") }
    do throws(FileError) {
      try Self.writeAll(fd, header, temporary)
      var remaining = Int(metadata.size)
      while remaining > 0 {
        let chunk = min(remaining, buffer.count)
        try Self.writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<chunk]), temporary)
        remaining -= chunk
      }
      guard fsync(fd) == 0 else {
        throw FileError(path: temporary, "fsync failed: \(systemErrorMessage(currentErrno))")
      }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    close(fd)
    guard rename(temporary, target) == 0 else {
      let code = currentErrno
      unlink(temporary)
      throw FileError(path: target, "cannot rename into place: \(systemErrorMessage(code))")
    }
    syncDirectory(folder(metadata.contentClass))
    counters.writes += 1
    counters.bytesWritten += Int64(header.count) + metadata.size
    counters.filesCreated += 1
    counters.fsyncs += 2
    return MonotonicClock.microseconds() - started
  }

  func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  static func writeAll(_ fd: Int32, _ array: [UInt8], _ path: String) throws(FileError) {
    var failure: FileError?
    array.withUnsafeBytes { bytes in
      do throws(FileError) { try writeAll(fd, bytes, path) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws(FileError) {
    if let code = POSIXIO.writeAll(fd, bytes) {
      throw FileError(path: path, "write failed: \(systemErrorMessage(code))")
    }
  }

  /// Reads and verifies the object file at `path`; nil if missing or damaged.
  func load(_ path: String, expectedKey: UInt64?) -> (key: UInt64, metadata: EntryMetadata, bytes: Int64)? {
    guard let fd = Self.openRegular(path) else { return nil }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: Self.headerLength)
    let got = header.withUnsafeMutableBytes { POSIXIO.readSome(fd, $0.baseAddress, Self.headerLength) }
    guard got == Self.headerLength, let decoded = Self.decode(header),
      expectedKey == nil || decoded.key == expectedKey
    else { return nil }
    var hash = BodyChecksum()
    var total: Int64 = 0
    while true {
      let count = POSIXIO.readSome(fd, buffer.baseAddress, buffer.count)
      guard count > 0 else { break }
      hash.add(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      total += Int64(count)
    }
    guard total == decoded.metadata.size, hash.value == decoded.checksum else { return nil }
    return (decoded.key, decoded.metadata, total + Int64(Self.headerLength))
  }

  func read(_ key: UInt64, size: Int64, contentClass: ContentClass) throws(FileError) -> Int64? {
    let started = MonotonicClock.microseconds()
    let file = path(key, contentClass)
    guard let loaded = load(file, expectedKey: key) else {
      if unlink(file) == 0 { counters.corruptDiscarded += 1 }
      return nil
    }
    counters.reads += 1
    counters.bytesRead += loaded.bytes
    return MonotonicClock.microseconds() - started
  }

  func updateDates(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    let file = path(key, metadata.contentClass)
    guard let fd = Self.openRegular(file) else { return }
    var existing = [UInt8](repeating: 0, count: Self.headerLength)
    let got = existing.withUnsafeMutableBytes { POSIXIO.readSome(fd, $0.baseAddress, Self.headerLength) }
    close(fd)
    guard got == Self.headerLength, let decoded = Self.decode(existing) else { return }
    let header = Self.header(key, metadata, checksum: decoded.checksum)
    let writer = open(file, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard writer >= 0 else { return }
    defer { close(writer) }
    _ = header.withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
  }

  func delete(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    if unlink(path(key, metadata.contentClass)) == 0 { counters.filesDeleted += 1 }
  }
}

/// Monotonic microseconds, for measuring real disk operations.
enum MonotonicClock {
  static func microseconds() -> Int64 { POSIXIO.monotonicNanoseconds() / 1000 }
}
