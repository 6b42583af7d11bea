#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that cannot fail to write: what went wrong, and where.
public struct FileError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The file concerned.
  public var path: String
  /// What failed (including the system's reason).
  public var message: String

  public init(path: String, _ message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { TerminalText.safe("\(path): \(message)", cutting: false) }
}

/// Writes a file atomically: data goes to a temporary file beside the target, which is
/// flushed, `fsync`ed and renamed over the target only by ``commit()``.
///
/// Readers of the target see the old file or the complete new one, never a partial
/// write; a failure (full disk, crash, error) leaves the target untouched and removes
/// the temporary file. Writes are buffered (1 MiB).
public final class AtomicFileWriter {
  /// The file that ``commit()`` replaces.
  public let path: String
  /// The temporary file being written.
  public let temporaryPath: String
  /// The open descriptor of the temporary file (for positioned reads and writes).
  public let descriptor: Int32
  private var buffer: UnsafeMutableRawBufferPointer
  private var buffered = 0
  private var finished = false
  /// The temporary file's registration for removal on SIGINT/SIGTERM.
  private var interruptToken: Int?

  /// Creates the temporary file next to `path`, creating missing parent folders.
  ///
  /// The target must be a regular file or absent (a symbolic link, device or folder is
  /// refused rather than replaced); a replaced file keeps its permission bits. The temporary
  /// file is `path.tmp-<pid>-<random>`, opened with `O_EXCL | O_NOFOLLOW`; leftovers of killed
  /// runs (their process gone) are deleted first.
  ///
  /// - Throws: ``FileError`` if the path is empty or refused, or the folder is not writable.
  public init(path: String) throws(FileError) {
    self.path = path
    guard !path.isEmpty else { throw FileError(path: "''", "an output path must not be empty") }
    var mode: mode_t = 0o644
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFREG else {
        let kind = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
        throw FileError(path: path, "is \(kind); CacheLab replaces only regular files")
      }
      mode = info.st_mode & 0o7777
    }
    let slash = path.lastIndex(of: "/")
    if let slash, slash != path.startIndex {
      try makeDirectories(String(path[..<slash]), purpose: "output folder")
    }
    Self.removeLeftovers(of: path)
    var generator = SystemRandomNumberGenerator()
    var attempt = 0
    while true {
      let candidate = "\(path).tmp-\(getpid())-\(String(generator.next() >> 1, radix: 36))"
      // Registered before it exists: a signal between `open` and registering would leave it.
      let token = TemporaryFiles.register(candidate)
      let fd = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
      if fd >= 0 {
        temporaryPath = candidate
        descriptor = fd
        interruptToken = token
        _ = fchmod(fd, mode)
        break
      }
      let code = currentErrno
      TemporaryFiles.unregister(token)
      attempt += 1
      guard code == EEXIST, attempt < 100 else {
        throw FileError(path: path, "cannot create a file here: \(systemErrorMessage(code))")
      }
    }
    buffer = .allocate(byteCount: 1 << 20, alignment: 16)
  }

  /// Deletes `path.tmp-<pid>-*` files whose process no longer runs (a killed earlier run).
  private static func removeLeftovers(of path: String) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let prefix = String(slash.map { path[path.index(after: $0)...] } ?? Substring(path)) + ".tmp-"
    TemporaryFiles.removeLeftovers(in: folder, prefix: prefix)
  }

  deinit {
    if !finished { abandon() }
    buffer.deallocate()
  }

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    if buffered + bytes.count > buffer.count { try flush() }
    if bytes.count > buffer.count {
      try writeAll(bytes)
    } else {
      UnsafeMutableRawBufferPointer(rebasing: buffer[buffered...]).copyMemory(from: bytes)
      buffered += bytes.count
    }
  }

  /// Appends the UTF-8 bytes of `text`.
  public func write(_ text: String) throws(FileError) {
    var copy = text
    var failure: FileError?
    copy.withUTF8 { bytes in
      do throws(FileError) { try write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Appends the raw bytes of a trivial value (e.g. a packed record field).
  public func writeValue<T: BitwiseCopyable>(_ value: T) throws(FileError) {
    var copy = value
    try withUnsafeBytes(of: &copy) { (bytes) throws(FileError) in try write(bytes) }
  }

  /// Writes buffered data to the temporary file.
  public func flush() throws(FileError) {
    guard buffered > 0 else { return }
    let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<buffered])
    buffered = 0
    try writeAll(pending)
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    if let code = POSIXIO.writeAll(descriptor, bytes) {
      throw FileError(path: path, "write failed: \(systemErrorMessage(code))")
    }
  }

  /// Flushes and syncs the temporary file without renaming it (what can fail before a rename:
  /// several files committed together sync first). Abandons the file on failure.
  public func sync() throws(FileError) {
    precondition(!finished, "sync after commit or abandon")
    do throws(FileError) {
      try flush()
      guard fsync(descriptor) == 0 else {
        throw FileError(path: path, "fsync failed: \(systemErrorMessage(currentErrno))")
      }
    } catch {
      abandon()
      throw error
    }
  }

  /// Flushes, syncs and renames the temporary file over ``path``.
  public func commit() throws(FileError) {
    precondition(!finished, "commit after commit or abandon")
    try sync()
    close(descriptor)
    finished = true
    defer { TemporaryFiles.unregister(interruptToken) }
    guard rename(temporaryPath, path) == 0 else {
      let code = currentErrno
      unlink(temporaryPath)
      throw FileError(path: path, "cannot replace the file: \(systemErrorMessage(code))")
    }
  }

  /// Closes and deletes the temporary file; the target is left as it was.
  public func abandon() {
    guard !finished else { return }
    finished = true
    close(descriptor)
    unlink(temporaryPath)
    TemporaryFiles.unregister(interruptToken)
  }
}

extension AtomicFileWriter {
  /// Appends `value` in decimal without creating a string.
  public func writeDecimal(_ value: Int64) throws(FileError) {
    if value < 0 { try writeByte(0x2D) }
    try writeDecimal(value.magnitude)
  }

  /// Appends `value` in decimal without creating a string.
  public func writeDecimal(_ value: UInt64) throws(FileError) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch on the stack
    var magnitude = value
    try withUnsafeMutableBytes(of: &digits) { (scratch) throws(FileError) in
      var position = scratch.count
      repeat {
        position -= 1
        scratch[position] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
        magnitude /= 10
      } while magnitude > 0
      try write(UnsafeRawBufferPointer(rebasing: scratch[position...]))
    }
  }

  /// Appends one byte.
  public func writeByte(_ byte: UInt8) throws(FileError) {
    try writeValue(byte)
  }
}
