import CacheCore
import Dispatch

/// Runs another reader on a background thread, a few small batches ahead, so that reading
/// and sampling a trace overlap the replay of what was already read (a sampled pass does little
/// replay work per byte read, so this nearly halves it on two cores). Memory: `chunks` batches
/// of `chunkSize` requests. The background thread starts at the first read.
final class ReadAheadReader: TraceReader {
  private var ring: ReadAheadRing<RequestBatch>?
  private let chunks: Int
  private let chunkSize: Int
  private var current: RequestBatch?
  private var offset = 0
  private var done = false
  let path: String
  let traits: TraceTraits
  let knownRequestCount: Int64?
  private(set) var requestsRead: Int64 = 0
  /// The inner reader's notes, once the end has been reached (nil before).
  var notes: String? { done ? inner.notes : nil }
  /// The inner reader's URL book (it is safe to share between threads).
  var trafficBook: TrafficBook? { inner.trafficBook }
  /// The reader being read ahead; touch its state only before the first read or after the
  /// end (the producer thread owns it in between).
  let inner: any TraceReader

  init(_ inner: any TraceReader, chunks: Int = 4, chunkSize: Int = 1 << 11) {
    path = inner.path
    traits = inner.traits
    knownRequestCount = inner.knownRequestCount
    self.inner = inner
    self.chunks = chunks
    self.chunkSize = chunkSize
  }

  deinit {
    ring?.stop()
  }

  /// The ring, started at the first read: until then the inner reader is the caller's to set
  /// up (a convert turns on its URL book after opening it, and no record may be read before).
  private func started() -> ReadAheadRing<RequestBatch> {
    if let ring { return ring }
    // From here to the end, the inner reader is used by the producer thread only.
    nonisolated(unsafe) let reader = inner
    let made = ReadAheadRing((0..<chunks).map { _ in RequestBatch(capacity: chunkSize) }) {
      batch throws(TraceError) in try reader.read(into: batch)
    }
    ring = made
    return made
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    batch.removeAll()
    while !done, batch.count < batch.capacity {
      if let current, offset < current.count {
        offset = batch.append(from: current, range: offset..<current.count) { _ in true }
        continue
      }
      if batch.count > 0 { break }  // deliver what is here rather than wait
      current = try started().next()
      offset = 0
      if current == nil { done = true }
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }
}
