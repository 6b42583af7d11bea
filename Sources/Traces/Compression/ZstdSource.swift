import CZstd

/// Streaming zstd decoding (libzstd): any number of concatenated frames, bounded memory
/// (the window plus one input buffer). A corrupt frame or data ending inside a frame is an
/// error, never a shorter trace.
final class ZstdSource: ByteSource {
  private let path: String
  private let stream: OpaquePointer
  private var input: CompressedInput
  /// Whether the decoder is between frames (a clean place for the data to end).
  private var frameComplete = true

  init(path: String, input source: FileDescriptorSource, prefix: UnsafeRawBufferPointer) throws(TraceError) {
    self.path = path
    guard let stream = ZSTD_createDStream() else { throw TraceError(.io, path: path, "zstd: out of memory") }
    self.stream = stream
    ZSTD_initDStream(stream)
    input = CompressedInput(source: source, capacity: ZSTD_DStreamInSize(), prefix: prefix)
  }

  deinit {
    ZSTD_freeDStream(stream)
    input.deallocate()
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    var output = ZSTD_outBuffer(dst: buffer, size: count, pos: 0)
    while output.pos == 0 {
      guard try input.refillIfEmpty() else {
        guard frameComplete else {
          throw TraceError(.truncatedRecord, path: path, "zstd data ends inside a frame (truncated .zst file)")
        }
        return 0
      }
      var compressed = ZSTD_inBuffer(src: input.buffer + input.consumed, size: input.pending, pos: 0)
      let hint = ZSTD_decompressStream(stream, &output, &compressed)
      input.consumed += compressed.pos
      if ZSTD_isError(hint) != 0 {
        let name = String(cString: ZSTD_getErrorName(hint))
        throw TraceError(.malformedRecord, path: path, "corrupt zstd data: \(name)")
      }
      frameComplete = hint == 0
    }
    return output.pos
  }
}
