import CLZMA
import CZlib
import CZstd
import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Compression {
  /// Compresses the plain file at `input` into `output` (not committed), streaming through
  /// 1 MiB buffers: zstd level 3, xz preset 6, gzip level 6 — the tools' defaults.
  public func compress(file input: String, into output: AtomicFileWriter) throws(FileError) {
    let descriptor = open(input, O_RDONLY)
    guard descriptor >= 0 else { throw FileError(path: input, "cannot open: \(systemErrorMessage(currentErrno))") }
    defer { close(descriptor) }
    let chunk = 1 << 20
    let plain = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
    let packed = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
    defer {
      plain.deallocate()
      packed.deallocate()
    }
    /// Reads the next plain chunk; 0 at the end.
    func next() throws(FileError) -> Int {
      let count = POSIXIO.readSome(descriptor, plain, chunk)
      guard count >= 0 else { throw FileError(path: input, "read failed: \(systemErrorMessage(Int32(-count)))") }
      return count
    }
    func emit(_ count: Int) throws(FileError) {
      if count > 0 { try output.write(UnsafeRawBufferPointer(start: packed, count: count)) }
    }
    switch self {
    case .zstd:
      guard let context = ZSTD_createCCtx() else { throw FileError(path: output.path, "zstd: out of memory") }
      defer { ZSTD_freeCCtx(context) }
      ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3)
      ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
      while true {
        let count = try next()
        var source = ZSTD_inBuffer(src: plain, size: count, pos: 0)
        let mode = count == 0 ? ZSTD_e_end : ZSTD_e_continue
        while true {
          var sink = ZSTD_outBuffer(dst: packed, size: chunk, pos: 0)
          let remaining = ZSTD_compressStream2(context, &sink, &source, mode)
          guard ZSTD_isError(remaining) == 0 else {
            throw FileError(path: output.path, "zstd: \(String(cString: ZSTD_getErrorName(remaining)))")
          }
          try emit(sink.pos)
          if mode == ZSTD_e_end ? remaining == 0 : source.pos == source.size { break }
        }
        if count == 0 { return }
      }
    case .xz:
      var stream = lzma_stream()
      guard lzma_easy_encoder(&stream, 6, LZMA_CHECK_CRC64) == LZMA_OK else {
        throw FileError(path: output.path, "xz: cannot start the encoder")
      }
      defer { lzma_end(&stream) }
      while true {
        let count = try next()
        stream.next_in = UnsafePointer(plain.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = count
        let action = count == 0 ? LZMA_FINISH : LZMA_RUN
        while true {
          stream.next_out = packed.assumingMemoryBound(to: UInt8.self)
          stream.avail_out = chunk
          let status = lzma_code(&stream, action)
          guard status == LZMA_OK || status == LZMA_STREAM_END else {
            throw FileError(path: output.path, "xz: encoder status \(status.rawValue)")
          }
          try emit(chunk - stream.avail_out)
          if status == LZMA_STREAM_END || (action == LZMA_RUN && stream.avail_in == 0) { break }
        }
        if count == 0 { return }
      }
    case .gzip:
      var stream = z_stream()
      guard cachelab_deflate_init_gzip(&stream, 6) == Z_OK else {
        throw FileError(path: output.path, "gzip: cannot start the encoder")
      }
      defer { deflateEnd(&stream) }
      while true {
        let count = try next()
        stream.next_in = plain.assumingMemoryBound(to: UInt8.self)
        stream.avail_in = UInt32(count)
        let flush = count == 0 ? Z_FINISH : Z_NO_FLUSH
        while true {
          stream.next_out = packed.assumingMemoryBound(to: UInt8.self)
          stream.avail_out = UInt32(chunk)
          let status = deflate(&stream, flush)
          guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw FileError(path: output.path, "gzip: encoder status \(status)")
          }
          try emit(chunk - Int(stream.avail_out))
          if status == Z_STREAM_END || (flush == Z_NO_FLUSH && stream.avail_in == 0) { break }
        }
        if count == 0 { return }
      }
    }
  }
}
