import CacheCore

/// The batches of a replay, in order: read on the caller's thread, and, once the caller asks
/// (``readAhead()``) for fixed-size binary records, decoded on a background thread a few
/// batches ahead so that reading overlaps replay (on two cores it takes reading off the
/// replay's time, though the replay then reads batches another core wrote: worth it only while
/// the replay waits on memory anyway). Nothing is copied: the caller replays the very batch the
/// reader filled. Memory: `ahead + 1` batches of at most 16,384 requests besides the caller's.
public final class BatchFeed {
  private let reader: any TraceReader
  private let batch: RequestBatch
  private let ahead: Int
  private var ring: ReadAheadRing<RequestBatch>?
  private var stopped = false

  /// Feeds `reader`'s batches through `batch`, on the caller's thread until ``readAhead()``.
  public init(_ reader: any TraceReader, batch: RequestBatch, ahead: Int = 2) {
    self.reader = reader
    self.batch = batch
    self.ahead = ahead
  }

  /// Decodes the rest of the trace on a background thread, through `ahead + 1` batches of its
  /// own. Only a reader of fixed-size records is read ahead (otherwise, or once started or
  /// stopped, nothing happens): its state is then touched by the background thread alone until
  /// the end, which the caller must wait for (``next()`` returning nil, or ``stop()``) before it
  /// reads `requestsRead` or `notes`. Call between batches.
  public func readAhead() {
    guard ring == nil, !stopped, ahead > 0, reader is any FixedRecordSource else { return }
    nonisolated(unsafe) let producer = reader
    // Small batches: the ring stays a small, reused part of the CPU cache that the caches
    // being simulated share.
    let capacity = min(batch.capacity, Self.aheadBatchCapacity)
    let buffers = (0...ahead).map { _ in RequestBatch(capacity: capacity) }
    ring = ReadAheadRing(buffers) { buffer throws(TraceError) in try producer.read(into: buffer) }
  }

  /// Requests per batch read ahead (40 bytes each).
  static let aheadBatchCapacity = 1 << 14

  deinit {
    ring?.stop()
  }

  /// Whether batches are decoded on a background thread.
  public var readsAhead: Bool { ring != nil }

  /// The next batch (valid until the next call), or nil at the end of the trace.
  public func next() throws(TraceError) -> RequestBatch? {
    if let ring { return try ring.next() }
    return try reader.read(into: batch) ? batch : nil
  }

  /// Stops reading ahead (the caller is done, perhaps early) and waits for the background
  /// thread. Idempotent.
  public func stop() {
    ring?.stop()
    ring = nil
    stopped = true
  }
}

/// A reader whose `read(into:)` only decodes its own file into the batch, so it can run on a
/// background thread while another thread replays what it delivered before.
protocol FixedRecordSource: TraceReader {}

extension FixedRecordReader: FixedRecordSource {}
