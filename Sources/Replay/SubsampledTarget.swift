import CacheCore
import Engine
import Traces

/// The requests of each batch that fall in a sparser spatial sample than the pass delivers
/// (the rate of caches the floor raised less than others), gathered once per batch for every
/// cache at that rate. Samples nest, so the sparser sample is a subset of the batch.
/// Memory: one batch and one index per request of a batch, allocated once.
final class SampleGroup: @unchecked Sendable {
  /// Keys whose hash's low 24 bits fall below this are in the sample.
  let threshold: UInt64
  /// The batch's requests that are in the sample, in order.
  let batch: RequestBatch
  /// `kept[i]`: how many of the batch's first `i` requests are in the sample.
  private let kept: UnsafeMutablePointer<Int32>

  init(threshold: UInt64, batchCapacity: Int) {
    self.threshold = threshold
    batch = RequestBatch(capacity: batchCapacity)
    kept = .allocate(capacity: batchCapacity + 1)
    kept.initialize(repeating: 0, count: batchCapacity + 1)
  }

  deinit {
    kept.deallocate()
  }

  /// Gathers the sampled requests of `source` (called once per batch, before any replay). O(n).
  func gather(from source: RequestBatch) {
    batch.removeAll()
    let (threshold, kept) = (threshold, kept)
    var looked = 0
    var count: Int32 = 0
    // One hash per request: the prefix counts are recorded as the sample is gathered (the
    // batch has the source's capacity, so the gathering never stops early).
    _ = batch.append(from: source, range: 0..<source.count) { request in
      kept[looked] = count
      looked += 1
      guard TraceSlice.samples(request.key, threshold: threshold) else { return false }
      count += 1
      return true
    }
    kept[looked] = count
  }

  /// The part of ``batch`` that came from `range` of the source batch. O(1).
  func range(of range: Range<Int>) -> Range<Int> {
    Int(kept[range.lowerBound])..<Int(kept[range.upperBound])
  }
}

/// A cache that replays its ``SampleGroup``'s part of each range instead of the whole batch,
/// and counts how many rows it kept, so its results scale by its own rate.
final class SubsampledTarget: ReplayTarget, @unchecked Sendable {
  let inner: any ReplayTarget
  let group: SampleGroup
  /// Requests replayed since the start (warm-up included), the basis of SHARDS-adj scaling.
  private(set) var keptRequests: Int64 = 0

  init(_ inner: any ReplayTarget, group: SampleGroup) {
    self.inner = inner
    self.group = group
  }

  func replay(_ batch: RequestBatch, range: Range<Int>) {
    let own = group.range(of: range)
    guard !own.isEmpty else { return }
    keptRequests += Int64(own.count)
    inner.replay(group.batch, range: own)
  }

  func resetCounters() { inner.resetCounters() }
  func closeWindowLatencies() -> [Double?]? { inner.closeWindowLatencies() }

  var missCounts: [(misses: Int64, bytes: Int64)] { inner.missCounts }
  var failure: EngineError? { inner.failure }
  var heldObjects: Int { inner.heldObjects }
}
