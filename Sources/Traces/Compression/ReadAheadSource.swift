/// Runs a decoder on a background thread, a few chunks ahead of the reader, so that
/// decompression overlaps replay. Memory: `chunks` × `chunkSize` bytes.
final class ReadAheadSource: ByteSource {
  /// One chunk of decoded bytes.
  private final class Chunk: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    var count = 0

    init(capacity: Int) {
      bytes = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
      bytes.deallocate()
    }
  }

  private let ring: ReadAheadRing<Chunk>
  private var chunk: Chunk?
  private var offset = 0

  init(_ inner: any ByteSource, chunks: Int = 4, chunkSize: Int = 1 << 20) {
    // The decoder (and the error it raised after some data) is used by the producer thread only.
    nonisolated(unsafe) let inner = inner
    let deferred = DeferredError()
    ring = ReadAheadRing((0..<chunks).map { _ in Chunk(capacity: chunkSize) }) { chunk throws(TraceError) in
      if let error = deferred.error { throw error }
      chunk.count = 0
      while chunk.count < chunkSize {
        let got: Int
        do throws(TraceError) {
          got = try inner.read(into: chunk.bytes + chunk.count, count: chunkSize - chunk.count)
        } catch {
          // Hand over the bytes decoded before the error first, so the error names the
          // record where the data really ends (a truncated file), not the first one.
          guard chunk.count > 0 else { throw error }
          deferred.error = error
          return true
        }
        if got == 0 { break }
        chunk.count += got
      }
      return chunk.count > 0
    }
  }

  deinit {
    ring.stop()
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    if chunk == nil || offset == chunk?.count {
      chunk = try ring.next()
      offset = 0
    }
    guard let chunk else { return 0 }
    let copied = min(count, chunk.count - offset)
    buffer.copyMemory(from: chunk.bytes + offset, byteCount: copied)
    offset += copied
    return copied
  }
}

/// An error the producer thread keeps for its next call (only that thread touches it).
private final class DeferredError: @unchecked Sendable {
  var error: TraceError?
}
