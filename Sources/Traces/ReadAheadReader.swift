import CacheCore
import Dispatch

/// Runs another reader on a background thread, a few small batches ahead, so that reading
/// and sampling a trace overlap the replay of what was already read (a sampled pass does little
/// replay work per byte read, so this nearly halves it on two cores). Memory: `chunks` batches
/// of `chunkSize` requests.
final class ReadAheadReader: TraceReader {
  /// The state shared with the producer thread (which must not keep the reader alive).
  private final class Pipeline: @unchecked Sendable {
    let inner: any TraceReader
    let buffers: [RequestBatch]
    /// Whether the inner reader was done after filling each buffer (a raw buffer: the two
    /// threads touch different elements, which an array's copy-on-write would not allow).
    let ended: UnsafeMutablePointer<Bool>
    var failure: TraceError?
    let filled = DispatchSemaphore(value: 0)
    /// Created at 0 and signalled once per buffer: libdispatch traps when a semaphore is
    /// released below the value it was created with.
    let free = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    /// Set by the consumer when it goes away early; the producer stops at its next buffer.
    var cancelled = false

    init(inner: any TraceReader, chunks: Int, chunkSize: Int) {
      self.inner = inner
      buffers = (0..<chunks).map { _ in RequestBatch(capacity: chunkSize) }
      ended = .allocate(capacity: chunks)
      ended.initialize(repeating: false, count: chunks)
      for _ in 0..<chunks { free.signal() }
    }

    deinit {
      ended.deallocate()
    }

    /// Reads buffer after buffer until the end, an error or cancellation.
    func produce() {
      var slot = 0
      while true {
        free.wait()
        if cancelled { break }
        do throws(TraceError) {
          ended[slot] = try !inner.read(into: buffers[slot])
        } catch {
          failure = error
          ended[slot] = true
          buffers[slot].removeAll()
          filled.signal()
          break
        }
        filled.signal()
        if ended[slot] { break }
        slot = (slot + 1) % buffers.count
      }
      finished.signal()
    }
  }

  private let pipeline: Pipeline
  private var slot = 0
  private var offset = 0
  private var holding = false
  private var done = false
  let path: String
  let traits: TraceTraits
  let knownRequestCount: Int64?
  private(set) var requestsRead: Int64 = 0

  /// The reader being read ahead; touch its state only after the end (the producer is done).
  var inner: any TraceReader { pipeline.inner }

  init(_ inner: any TraceReader, chunks: Int = 4, chunkSize: Int = 1 << 11) {
    path = inner.path
    traits = inner.traits
    knownRequestCount = inner.knownRequestCount
    pipeline = Pipeline(inner: inner, chunks: chunks, chunkSize: chunkSize)
    let pipeline = self.pipeline
    DispatchQueue.global().async { pipeline.produce() }
  }

  deinit {
    pipeline.cancelled = true
    if holding { pipeline.free.signal() }
    // Wake a producer waiting for a free buffer, then wait for it to stop.
    pipeline.free.signal()
    pipeline.finished.wait()
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    batch.removeAll()
    while !done, batch.count < batch.capacity {
      if !holding || offset == pipeline.buffers[slot].count {
        if holding {
          if pipeline.ended[slot] {
            done = true
            break
          }
          pipeline.free.signal()
          slot = (slot + 1) % pipeline.buffers.count
          holding = false
        }
        if batch.count > 0 { break }  // deliver what is here rather than wait
        pipeline.filled.wait()
        holding = true
        offset = 0
        if pipeline.ended[slot], let failure = pipeline.failure {
          done = true
          throw failure
        }
        continue
      }
      let source = pipeline.buffers[slot]
      offset = batch.append(from: source, range: offset..<source.count) { _ in true }
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }
}
