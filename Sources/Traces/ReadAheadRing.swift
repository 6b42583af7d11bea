import Dispatch

/// A ring of buffers that a producer on a background thread fills a few ahead of one consumer
/// (decompression ahead of parsing, sampling ahead of replay). Memory: the buffers.
final class ReadAheadRing<Buffer>: @unchecked Sendable {
  private let buffers: [Buffer]
  /// Whether the producer stopped after each buffer (a raw buffer: the two threads touch
  /// different elements, which an array's copy-on-write would not allow).
  private let ended: UnsafeMutablePointer<Bool>
  /// The error that stopped the producer (written before its last buffer is handed over).
  private var failure: TraceError?
  private let filled = DispatchSemaphore(value: 0)
  /// Created at 0 and signalled once per buffer: libdispatch traps when a semaphore is
  /// released below the value it was created with.
  private let free = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  /// Set by the consumer when it goes away early; the producer stops at its next buffer.
  private var cancelled = false
  // The consumer's side.
  private var slot = 0
  private var holding = false
  private var done = false

  /// Starts the producer: `fill` fills a buffer and returns whether more may follow (false:
  /// the data ended and this buffer holds nothing) or throws.
  init(_ buffers: [Buffer], fill: @escaping @Sendable (Buffer) throws(TraceError) -> Bool) {
    self.buffers = buffers
    ended = .allocate(capacity: buffers.count)
    ended.initialize(repeating: false, count: buffers.count)
    for _ in buffers { free.signal() }
    DispatchQueue.global().async { self.produce(fill) }
  }

  deinit {
    ended.deallocate()
  }

  private func produce(_ fill: (Buffer) throws(TraceError) -> Bool) {
    var slot = 0
    while true {
      free.wait()
      if cancelled { break }
      do throws(TraceError) {
        ended[slot] = try !fill(buffers[slot])
      } catch {
        failure = error
        ended[slot] = true
      }
      filled.signal()
      if ended[slot] { break }
      slot = (slot + 1) % buffers.count
    }
    finished.signal()
  }

  /// Hands the buffer held back to the producer and waits for the next one: nil at the end
  /// of the data (and on every call after it). Throws what stopped the producer.
  func next() throws(TraceError) -> Buffer? {
    guard !done else { return nil }
    if holding {
      free.signal()
      slot = (slot + 1) % buffers.count
    }
    filled.wait()
    holding = true
    guard ended[slot] else { return buffers[slot] }
    done = true
    if let failure { throw failure }
    return nil
  }

  /// Stops the producer (the consumer is going away) and, when `waiting`, waits for it. A
  /// producer not waited for ends at its next buffer: it keeps the ring and what its `fill`
  /// captured alive until then (a producer blocked on a pipe may take a while).
  func stop(waiting: Bool = true) {
    cancelled = true
    if holding { free.signal() }
    // Wake a producer waiting for a free buffer, then wait for it to stop.
    free.signal()
    if waiting { finished.wait() }
  }
}
