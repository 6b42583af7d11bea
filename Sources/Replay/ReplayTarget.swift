import CacheCore
import Engine

/// Something the replayer feeds batch by batch: an engine, an engine's sample of the pass, or
/// the one pass that serves LRU at many sizes. Used by one thread at a time.
protocol ReplayTarget: AnyObject, Sendable {
  func replay(_ batch: RequestBatch, range: Range<Int>)
  func resetCounters()
  /// Each of its caches' counted misses and their bytes so far (since the last reset).
  var missCounts: [(misses: Int64, bytes: Int64)] { get }
  /// The error that stopped the target, if any (checked after each batch).
  var failure: EngineError? { get }
  /// The `LatencyFigure.windowed` figures of the window ending now (nil: the target
  /// records no latency). Called once at each window's end.
  func closeWindowLatencies() -> [Double?]?
  /// Objects its caches hold between them, for ``PrivateCacheFit``.
  var heldObjects: Int { get }
}

/// A cache engine as a replay target (a plain policy run is one too).
final class EngineTarget: ReplayTarget, @unchecked Sendable {
  let engine: CacheEngine
  private(set) var failure: EngineError?
  private var windows = WindowLatencies()

  init(_ engine: CacheEngine) {
    self.engine = engine
  }

  func replay(_ batch: RequestBatch, range: Range<Int>) {
    guard failure == nil else { return }
    do throws(EngineError) {
      try engine.replay(batch, range: range)
    } catch {
      failure = error
    }
  }

  func resetCounters() {
    engine.resetStats()
    windows.reset()
  }

  func closeWindowLatencies() -> [Double?]? {
    engine.isPolicyRun ? nil : windows.close(engine.stats)
  }

  var missCounts: [(misses: Int64, bytes: Int64)] { [engine.missCounts] }
  var heldObjects: Int { engine.heldObjects }
}
