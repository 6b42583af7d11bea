import CacheCore
import Engine

/// Something the replayer feeds batch by batch: an engine, or an engine's sample of the pass.
/// Used by one thread at a time.
protocol ReplayTarget: AnyObject, Sendable {
  func replay(_ batch: RequestBatch, range: Range<Int>)
  func resetCounters()
  /// Counted misses so far (since the last reset).
  var misses: Int64 { get }
  /// Bytes of the counted misses so far.
  var missBytes: Int64 { get }
  /// The error that stopped the target, if any (checked after each batch).
  var failure: EngineError? { get }
  /// The `LatencyFigure.windowed` figures of the window ending now (nil: the target
  /// records no latency). Called once at each window's end.
  func closeWindowLatencies() -> [Double?]?
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

  var misses: Int64 { engine.missCounts.misses }
  var missBytes: Int64 { engine.missCounts.bytes }
}
