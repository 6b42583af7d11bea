import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a ``ChunkedFile`` gets its bytes: the file itself or a decoder over it.
protocol ByteSource: AnyObject {
  /// Reads up to `count` bytes into `buffer`; 0 only at the end of the data.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int
}

/// The bytes of an open file descriptor, read with `read(2)` (retrying on EINTR); closes
/// the descriptor on deinit.
final class FileDescriptorSource: ByteSource {
  let path: String
  let descriptor: Int32

  init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    let done = POSIXIO.readSome(descriptor, buffer, count)
    guard done >= 0 else { throw TraceError(.io, path: path, "read failed: \(systemErrorMessage(Int32(-done)))") }
    return done
  }

  /// Fills `buffer` as far as the data goes (short only at the end of the data).
  func readFully(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    var done = 0
    while done < count {
      let got = try read(into: buffer + done, count: count - done)
      if got == 0 { break }
      done += got
    }
    return done
  }
}

/// The compressed input of a decoder: a buffer refilled from the file, starting with the
/// bytes already read to detect the compression.
struct CompressedInput {
  let source: FileDescriptorSource
  let buffer: UnsafeMutableRawPointer
  let capacity: Int
  /// Valid bytes in `buffer`, and how many of them the decoder has consumed.
  var filled = 0
  var consumed = 0
  /// Whether the file has no more bytes.
  var atEnd = false

  init(source: FileDescriptorSource, capacity: Int, prefix: UnsafeRawBufferPointer) {
    self.source = source
    self.capacity = max(capacity, prefix.count)
    buffer = .allocate(byteCount: self.capacity, alignment: 16)
    if let base = prefix.baseAddress, prefix.count > 0 { buffer.copyMemory(from: base, byteCount: prefix.count) }
    filled = prefix.count
  }

  func deallocate() { buffer.deallocate() }

  /// Unconsumed compressed bytes.
  var pending: Int { filled - consumed }

  /// Reads more compressed bytes when all are consumed; false at the end of the file.
  mutating func refillIfEmpty() throws(TraceError) -> Bool {
    guard pending == 0 else { return true }
    guard !atEnd else { return false }
    consumed = 0
    filled = try source.read(into: buffer, count: capacity)
    if filled == 0 { atEnd = true }
    return filled > 0
  }
}
