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

  public init(requestLimit: Int64? = nil, sampleRate: Double = 1, sampleObjects: Int? = nil) {
    self.requestLimit = requestLimit
    self.sampleRate = sampleRate
    self.sampleObjects = sampleObjects
  }

  /// Whether the slice is the whole trace.
  public var isWhole: Bool { requestLimit == nil && sampleRate >= 1 }

  /// The sampling threshold on the low 24 bits of a key's hash.
  var threshold: UInt64 { UInt64((sampleRate * Double(1 << 24)).rounded()) }

  /// Whether `key` is in the spatial sample (always, without sampling). O(1).
  @inline(__always)
  public func samples(_ key: UInt64) -> Bool {
    sampleRate >= 1 || KeyHash.mix(key) & 0xFF_FFFF < threshold
  }

  /// Requests of the underlying trace that a sliced `reader` has consumed (sampled or not),
  /// or nil for a reader that is not sliced.
  public static func sourceRequests(of reader: any TraceReader) -> Int64? {
    (reader as? SlicedReader)?.consumed
  }

  /// `reader` restricted to this slice (`reader` itself for the whole trace).
  public func apply(to reader: any TraceReader) -> any TraceReader {
    isWhole ? reader : SlicedReader(reader, slice: self)
  }
}

/// A reader that delivers only a ``TraceSlice`` of another reader's requests.
final class SlicedReader: TraceReader {
  private let inner: any TraceReader
  private let slice: TraceSlice
  /// Requests of the inner trace consumed so far (the limit counts these).
  private(set) var consumed: Int64 = 0
  private(set) var requestsRead: Int64 = 0

  init(_ inner: any TraceReader, slice: TraceSlice) {
    self.inner = inner
    self.slice = slice
  }

  var path: String { inner.path }
  var traits: TraceTraits { inner.traits }
  var knownRequestCount: Int64? {
    guard slice.sampleRate >= 1 else { return nil }
    return [inner.knownRequestCount, slice.requestLimit].compactMap { $0 }.min()
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    let limit = slice.requestLimit ?? .max
    let sampling = slice.sampleRate < 1
    let threshold = slice.threshold
    while consumed < limit {
      guard try inner.read(into: batch) else { return false }
      let room = limit - consumed
      var seen: Int64 = 0
      let looked = batch.retain { request in
        seen &+= 1
        return seen <= room && (!sampling || KeyHash.mix(request.key) & 0xFF_FFFF < threshold)
      }
      consumed += min(Int64(looked), room)
      requestsRead += Int64(batch.count)
      if batch.count > 0 { return true }
    }
    batch.refill { _ in 0 }
    return false
  }
}
