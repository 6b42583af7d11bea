import CacheCore

/// Which part of a trace a run reads: the first `requestLimit` requests (`--num-req`) and,
/// with `sampleRate` below 1, only the objects whose key hash falls below `rate · 2^24`
/// (spatial sampling, SHARDS by Waldspurger et al., FAST 2015).
public struct TraceSlice: Sendable, Equatable {
  /// Requests to read from the start of the trace (nil: all); counted before sampling.
  public var requestLimit: Int64?
  /// Fraction of the key space kept, in (0, 1].
  public var sampleRate: Double
  /// SHARDS' fixed-size variant: keep at most this many distinct objects, at the rate
  /// ``fixedSizeRate(objects:reader:batch:)`` finds in a pre-pass (nil: `sampleRate` as given).
  public var sampleObjects: Int?

  /// The floor on a sampled cache (0: none): a cache whose size scaled by `sampleRate` would
  /// hold fewer objects is simulated at the larger rate that gives it this many. Samples of
  /// different rates nest (a key below a lower threshold is below every higher one), so one
  /// pass at the highest rate serves every cache.
  public var minimumObjects: Int
  /// The command line's floor: a miniature cache of a few objects no longer behaves like the
  /// full one (S3-FIFO's 10 % small queue becomes one object); 32 brings scarab's error at
  /// R = 0.01 from 0.022 to 0.008 for a third more replay work (docs/trace-formats.md, Sampling error).
  public static let defaultMinimumObjects = 32

  public init(requestLimit: Int64? = nil, sampleRate: Double = 1, sampleObjects: Int? = nil, minimumObjects: Int = 0) {
    self.requestLimit = requestLimit
    self.sampleRate = sampleRate
    self.sampleObjects = sampleObjects
    self.minimumObjects = minimumObjects
  }

  /// Whether the slice is the whole trace.
  public var isWhole: Bool { requestLimit == nil && sampleRate >= 1 }

  /// The sampling threshold on the low 24 bits of a key's hash.
  var threshold: UInt64 { Self.threshold(rate: sampleRate) }

  /// The threshold on the low 24 bits of a key's hash that keeps `rate` of the key space.
  public static func threshold(rate: Double) -> UInt64 { UInt64((rate * Double(1 << 24)).rounded()) }

  /// The smallest rate on the threshold grid (multiples of 2^-24) that is at least `rate`.
  public static func gridRate(atLeast rate: Double) -> Double {
    min(1, (rate * Double(1 << 24)).rounded(.up) / Double(1 << 24))
  }

  /// Whether `key` falls in the sample of threshold `threshold`. O(1).
  @inline(__always)
  public static func samples(_ key: UInt64, threshold: UInt64) -> Bool {
    KeyHash.mix(key) & 0xFF_FFFF < threshold
  }

  /// Whether `key` is in the spatial sample (always, without sampling). O(1).
  @inline(__always)
  public func samples(_ key: UInt64) -> Bool {
    sampleRate >= 1 || Self.samples(key, threshold: threshold)
  }

  /// This slice at another rate (the same first requests and floor).
  public func at(rate: Double) -> TraceSlice {
    var slice = self
    slice.sampleRate = rate
    return slice
  }

  /// Requests of the underlying trace that a sliced `reader` has consumed (sampled or not),
  /// or nil for a reader that is not sliced.
  public static func sourceRequests(of reader: any TraceReader) -> Int64? {
    (((reader as? ReadAheadReader)?.inner ?? reader) as? SlicedReader)?.consumed
  }

  /// `reader` restricted to this slice (`reader` itself for the whole trace).
  public func apply(to reader: any TraceReader) -> any TraceReader {
    if isWhole { return reader }
    let sliced = SlicedReader(reader, slice: self)
    // A sample is read ahead on another thread: little replay work per byte read to wait for.
    return sampleRate < 1 ? ReadAheadReader(sliced) : sliced
  }
}

/// A reader that can drop records outside a spatial sample while decoding them, instead of
/// handing every one to ``SlicedReader`` to drop (fixed-size binary records: the decoded region
/// stays in cache). Its `requestsRead` then counts every record decoded.
protocol SamplingDecoder: TraceReader {
  /// From now on, deliver only records whose key hash falls below `threshold`, and read no
  /// more than `recordLimit` records. Returns false when the reader cannot (then nothing changed).
  func sample(threshold: UInt64, recordLimit: Int64?) -> Bool
}

/// A reader that delivers only a ``TraceSlice`` of another reader's requests. A sample is
/// gathered into full batches (the inner reader fills a second buffer), so the caches get a
/// few large batches instead of one small one per batch read.
final class SlicedReader: TraceReader {
  private let inner: any TraceReader
  private let slice: TraceSlice
  /// Requests of the inner trace consumed so far (the limit counts these).
  private(set) var consumed: Int64 = 0
  private(set) var requestsRead: Int64 = 0
  /// What the inner reader delivered and the sample has not yet looked at (sampling only).
  private var pending: RequestBatch?
  private var pendingIndex = 0
  private var innerEnded = false

  /// Whether the inner reader samples while decoding (then it also applies the limit).
  private let decoderSamples: Bool

  init(_ inner: any TraceReader, slice: TraceSlice) {
    self.inner = inner
    self.slice = slice
    decoderSamples =
      slice.sampleRate < 1
      && (inner as? any SamplingDecoder)?.sample(threshold: slice.threshold, recordLimit: slice.requestLimit) == true
  }

  var path: String { inner.path }
  var traits: TraceTraits { inner.traits }
  var notes: String? { inner.notes }
  var trafficBook: TrafficBook? { inner.trafficBook }
  var knownRequestCount: Int64? {
    guard slice.sampleRate >= 1 else { return nil }
    return [inner.knownRequestCount, slice.requestLimit].compactMap { $0 }.min()
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    slice.sampleRate < 1 ? try readSample(into: batch) : try readPrefix(into: batch)
  }

  /// The first `requestLimit` requests, a batch at a time.
  private func readPrefix(into batch: RequestBatch) throws(TraceError) -> Bool {
    let limit = slice.requestLimit ?? .max
    guard consumed < limit, try inner.read(into: batch) else {
      batch.refill { _ in 0 }
      return false
    }
    let room = limit - consumed
    if Int64(batch.count) > room { _ = batch.retain(limit: Int(room)) { _ in true } }
    consumed += Int64(batch.count)
    requestsRead += Int64(batch.count)
    return true
  }

  /// Sampled requests of the first `requestLimit`, until `batch` is full or the trace ends.
  private func readSample(into batch: RequestBatch) throws(TraceError) -> Bool {
    if decoderSamples {
      let more = try inner.read(into: batch)
      consumed = inner.requestsRead
      requestsRead += Int64(batch.count)
      return more
    }
    let limit = slice.requestLimit ?? .max
    let threshold = slice.threshold
    // A small buffer for what the inner reader decodes: it stays in cache and is not
    // faulted in page by page as a full batch would be.
    let source = pending ?? RequestBatch(capacity: min(batch.capacity, 1 << 12))
    pending = source
    batch.removeAll()
    while batch.count < batch.capacity, !innerEnded {
      if pendingIndex >= source.count {
        guard !innerEnded, consumed < limit, try inner.read(into: source) else {
          innerEnded = true
          break
        }
        pendingIndex = 0
      }
      let end = min(source.count, pendingIndex + Int(min(Int64(source.count - pendingIndex), limit - consumed)))
      let next = batch.append(from: source, range: pendingIndex..<end) { request in
        TraceSlice.samples(request.key, threshold: threshold)
      }
      consumed += Int64(next - pendingIndex)
      pendingIndex = next == end ? source.count : next
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }
}
