import Dispatch

/// Runs a decoder on a background thread, a few chunks ahead of the reader, so that
/// decompression overlaps replay. Memory: `chunks` × `chunkSize` bytes.
final class ReadAheadSource: ByteSource {
  /// The state shared with the producer thread (which must not keep the source alive).
  private final class Pipeline: @unchecked Sendable {
    let inner: any ByteSource
    let chunkSize: Int
    let buffers: [UnsafeMutableRawPointer]
    /// Bytes in each buffer (0: end of data), or the error that stopped the decoder.
    var lengths: [Int]
    var failure: TraceError?
    let filled = DispatchSemaphore(value: 0)
    /// Created at 0 and signalled once per chunk: libdispatch traps when a semaphore is
    /// released below the value it was created with.
    let free = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    /// Set by the reader when it goes away early; the producer stops at its next chunk.
    var cancelled = false

    init(inner: any ByteSource, chunks: Int, chunkSize: Int) {
      self.inner = inner
      self.chunkSize = chunkSize
      buffers = (0..<chunks).map { _ in .allocate(byteCount: chunkSize, alignment: 16) }
      lengths = [Int](repeating: 0, count: chunks)
      for _ in 0..<chunks { free.signal() }
    }

    deinit {
      for buffer in buffers { buffer.deallocate() }
    }

    /// Decodes chunk after chunk until the end, an error or cancellation.
    func produce() {
      var slot = 0
      while true {
        free.wait()
        if cancelled { break }
        var count = 0
        do throws(TraceError) {
          while count < chunkSize {
            let got = try inner.read(into: buffers[slot] + count, count: chunkSize - count)
            if got == 0 { break }
            count += got
          }
        } catch {
          failure = error
          lengths[slot] = -1
          filled.signal()
          break
        }
        lengths[slot] = count
        filled.signal()
        if count == 0 { break }
        slot = (slot + 1) % buffers.count
      }
      finished.signal()
    }
  }

  private let pipeline: Pipeline
  private var slot = 0
  private var offset = 0
  private var available = 0
  private var holding = false
  private var ended = false

  init(_ inner: any ByteSource, chunks: Int = 4, chunkSize: Int = 1 << 20) {
    pipeline = Pipeline(inner: inner, chunks: chunks, chunkSize: chunkSize)
    let pipeline = self.pipeline
    DispatchQueue.global().async { pipeline.produce() }
  }

  deinit {
    pipeline.cancelled = true
    if holding { pipeline.free.signal() }
    // Wake a producer waiting for a free chunk, then wait for it to stop.
    pipeline.free.signal()
    pipeline.finished.wait()
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TraceError) -> Int {
    guard !ended else { return 0 }
    if offset == available {
      if holding {
        pipeline.free.signal()
        slot = (slot + 1) % pipeline.buffers.count
        holding = false
      }
      pipeline.filled.wait()
      holding = true
      let length = pipeline.lengths[slot]
      if length < 0, let failure = pipeline.failure {
        ended = true
        throw failure
      }
      guard length > 0 else {
        ended = true
        return 0
      }
      available = length
      offset = 0
    }
    let copied = min(count, available - offset)
    buffer.copyMemory(from: pipeline.buffers[slot] + offset, byteCount: copied)
    offset += copied
    return copied
  }
}
