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
    // The decoder is used by the producer thread only.
    nonisolated(unsafe) let inner = inner
    ring = ReadAheadRing((0..<chunks).map { _ in Chunk(capacity: chunkSize) }) { chunk throws(TraceError) in
      chunk.count = 0
      while chunk.count < chunkSize {
        let got = try inner.read(into: chunk.bytes + chunk.count, count: chunkSize - chunk.count)
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
