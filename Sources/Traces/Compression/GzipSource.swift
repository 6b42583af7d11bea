import CZlib

/// Streaming gzip (or zlib) decoding, concatenated gzip members included. A corrupt member
/// or data ending inside one is an error.
final class GzipSource: ByteSource {
  private let path: String
  private var stream = z_stream()
  private var input: CompressedInput
  /// Whether the decoder is between members (a clean place for the data to end).
  private var memberComplete = false

  init(path: String, input source: FileDescriptorSource, prefix: UnsafeRawBufferPointer) throws(TraceError) {
    self.path = path
    input = CompressedInput(source: source, capacity: 1 << 17, prefix: prefix)
    guard cachelab_inflate_init(&stream) == Z_OK else {
      input.deallocate()
      throw TraceError(.io, path: path, "gzip: cannot start the decoder")
    }
  }

  deinit {
    inflateEnd(&stream)
    input.deallocate()
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    let limit = UInt32(min(count, Int(UInt32.max)))
    stream.next_out = buffer.assumingMemoryBound(to: UInt8.self)
    stream.avail_out = limit
    while stream.avail_out == limit {
      guard try input.refillIfEmpty() else {
        guard memberComplete else {
          throw TraceError(.truncatedRecord, path: path, "gzip data ends inside a member (truncated .gz file)")
        }
        return 0
      }
      if memberComplete {
        // Another member follows.
        inflateReset(&stream)
        memberComplete = false
      }
      stream.next_in = input.buffer.assumingMemoryBound(to: UInt8.self) + input.consumed
      stream.avail_in = UInt32(min(input.pending, Int(UInt32.max)))
      let before = stream.avail_in
      let status = inflate(&stream, Z_NO_FLUSH)
      input.consumed += Int(before - stream.avail_in)
      switch status {
      case Z_OK, Z_BUF_ERROR: continue
      case Z_STREAM_END: memberComplete = true
      default:
        let detail = stream.msg.map { String(cString: $0) } ?? "status \(status)"
        throw TraceError(.malformedRecord, path: path, "corrupt gzip data: \(detail)")
      }
    }
    return Int(limit - stream.avail_out)
  }
}
