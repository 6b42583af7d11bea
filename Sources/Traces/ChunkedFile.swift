import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file read sequentially through one reusable buffer with `read(2)`, decompressed on
/// the fly when its first bytes are a zstd, xz or gzip header.
///
/// Bounded memory whatever the file size; the unread tail is kept across refills, so a
/// record or line never straddles two buffers. Reference semantics: one file offset,
/// closed on deinit. All unsafe buffer work of the trace readers is confined here.
final class ChunkedFile {
  let path: String
  private let source: any ByteSource
  /// The compression the file is read through, if any.
  let compression: Compression?
  private(set) var buffer: UnsafeMutableRawPointer
  private(set) var bufferCapacity: Int
  /// Offset of the first unread byte in `buffer`.
  var start = 0
  /// Offset past the last valid byte in `buffer`.
  private(set) var end = 0
  /// Whether `read(2)` has reported the end of the file.
  private(set) var reachedEOF = false
  /// File size for regular files, nil for pipes and devices.
  let regularFileSize: Int64?

  /// Largest buffer a single line may force (longer lines are an error).
  static let maximumBuffer = 64 << 20

  init(path: String, bufferSize: Int = 1 << 18) throws(TraceError) {
    self.path = path
    if path == "-" {
      // Standard input, read once from the start (a pipe or a redirected file).
      let descriptor = dup(STDIN_FILENO)
      guard descriptor >= 0 else {
        throw TraceError(.cannotOpen, path: path, "cannot read standard input: \(systemErrorMessage(currentErrno))")
      }
      bufferCapacity = bufferSize
      buffer = .allocate(byteCount: bufferSize, alignment: 16)
      (source, compression, end) = try Self.openSource(path, descriptor: descriptor, buffer: buffer)
      regularFileSize = nil
      return
    }
    // Only regular files: a named FIFO would block in open(2), a device (/dev/zero) never ends.
    var before = stat()
    if stat(path, &before) == 0, before.st_mode & S_IFMT != S_IFREG, before.st_mode & S_IFMT != S_IFDIR {
      let kind: String
      switch before.st_mode & S_IFMT {
      case S_IFIFO: kind = "a FIFO or pipe"
      case S_IFCHR, S_IFBLK: kind = "a device"
      default: kind = "not a regular file"
      }
      throw TraceError(
        .cannotOpen, path: path, "is \(kind); CacheLab reads traces from regular files (save the data to a file first)")
    }
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    guard fd >= 0 else {
      throw TraceError(.cannotOpen, path: path, "cannot open: \(systemErrorMessage(currentErrno))")
    }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let code = currentErrno
      close(fd)
      throw TraceError(.cannotOpen, path: path, "cannot stat: \(systemErrorMessage(code))")
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw TraceError(.cannotOpen, path: path, "is a directory, not a trace file")
    }
    bufferCapacity = bufferSize
    buffer = .allocate(byteCount: bufferSize, alignment: 16)
    (source, compression, end) = try Self.openSource(path, descriptor: fd, buffer: buffer)
    regularFileSize = compression == nil && (status.st_mode & S_IFMT) == S_IFREG ? Int64(status.st_size) : nil
  }

  /// Reads the first bytes of `descriptor` to detect a compression: returns the source to
  /// read from and how many plain bytes are already in `buffer`.
  private static func openSource(_ path: String, descriptor: Int32, buffer: UnsafeMutableRawPointer) throws(TraceError)
    -> (any ByteSource, Compression?, Int)
  {
    let file = FileDescriptorSource(path: path, descriptor: descriptor)
    let count = try file.readFully(into: buffer, count: Compression.magicLength)
    let prefix = UnsafeRawBufferPointer(start: buffer, count: count)
    guard let kind = Compression.detect(prefix) else { return (file, nil, count) }
    return (ReadAheadSource(try kind.decoder(path: path, input: file, prefix: prefix)), kind, 0)
  }

  deinit {
    buffer.deallocate()
  }

  /// Unread bytes currently in the buffer.
  var available: Int { end - start }

  /// Pointer to the first unread byte.
  var cursor: UnsafeRawPointer { UnsafeRawPointer(buffer + start) }

  /// Moves the unread bytes to the front and reads more. Returns false if nothing new
  /// arrived (end of file). Grows the buffer when it is already full of unread bytes.
  func refill() throws(TraceError) -> Bool {
    if start > 0 {
      if available > 0 { buffer.copyMemory(from: buffer + start, byteCount: available) }
      end = available
      start = 0
    }
    if end == bufferCapacity {
      guard bufferCapacity < Self.maximumBuffer else {
        throw TraceError(.malformedRecord, path: path, "a line is longer than \(Self.maximumBuffer >> 20) MiB")
      }
      let bigger = UnsafeMutableRawPointer.allocate(byteCount: bufferCapacity * 2, alignment: 16)
      bigger.copyMemory(from: buffer, byteCount: end)
      buffer.deallocate()
      buffer = bigger
      bufferCapacity *= 2
    }
    guard !reachedEOF else { return false }
    let count = try source.read(into: buffer + end, count: bufferCapacity - end)
    guard count > 0 else {
      reachedEOF = true
      return false
    }
    end += count
    return true
  }
}
