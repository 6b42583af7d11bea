import CLZMA

/// Streaming xz decoding (liblzma), concatenated streams included, with a 1 GiB memory
/// limit for the dictionary. A corrupt stream or data ending inside one is an error.
final class XZSource: ByteSource {
  private let path: String
  private var stream = lzma_stream()
  private var input: CompressedInput
  private var finished = false

  init(path: String, input source: FileDescriptorSource, prefix: UnsafeRawBufferPointer) throws(TraceError) {
    self.path = path
    input = CompressedInput(source: source, capacity: 1 << 17, prefix: prefix)
    // 0x08 is LZMA_CONCATENATED (a UINT32_C macro Swift cannot import).
    let status = lzma_stream_decoder(&stream, 1 << 30, 0x08)
    guard status == LZMA_OK else {
      input.deallocate()
      throw TraceError(.io, path: path, "xz: cannot start the decoder (\(status.rawValue))")
    }
  }

  deinit {
    lzma_end(&stream)
    input.deallocate()
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    guard !finished else { return 0 }
    stream.next_out = buffer.assumingMemoryBound(to: UInt8.self)
    stream.avail_out = count
    while stream.avail_out == count {
      let more = try input.refillIfEmpty()
      stream.next_in = UnsafePointer(input.buffer.assumingMemoryBound(to: UInt8.self) + input.consumed)
      stream.avail_in = input.pending
      let status = lzma_code(&stream, more ? LZMA_RUN : LZMA_FINISH)
      input.consumed = input.filled - stream.avail_in
      switch status {
      case LZMA_OK: continue
      case LZMA_STREAM_END:
        finished = true
        return count - stream.avail_out
      case LZMA_BUF_ERROR where !more:
        throw TraceError(.truncatedRecord, path: path, "xz data ends inside a stream (truncated .xz file)")
      case LZMA_MEMLIMIT_ERROR:
        throw TraceError(.unsupported, path: path, "xz stream needs more than 1 GiB of dictionary memory")
      default:
        throw TraceError(.malformedRecord, path: path, "corrupt xz data (liblzma status \(status.rawValue))")
      }
    }
    return count - stream.avail_out
  }
}
