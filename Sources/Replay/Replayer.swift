import CacheCore
import Dispatch
import Engine
import Traces

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replays one trace through many (policy, capacity) caches in a single pass.
///
/// The trace is read a batch at a time into one reused buffer; every cache replays the
/// batch before the next is read, in parallel across cores when there are several caches.
/// A pre-pass over the trace runs first only when a capacity is a fraction of the working
/// set or the warm-up is a fraction of a request count the format cannot tell up front.
public struct Replayer: Sendable {
  /// The run to perform.
  public private(set) var configuration: RunConfiguration
  /// Called after each batch with (requests replayed so far, total if known).
  public var progress: (@Sendable (Int64, Int64?) -> Void)?
  /// Called with the requests read so far during the pre-pass that measures the working set.
  public var prePassProgress: (@Sendable (Int64) -> Void)?

  public init(_ configuration: RunConfiguration, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) {
    self.configuration = configuration
    self.progress = progress
  }

  /// Performs the run.
  ///
  /// - Throws: ``ReplayError``: `.configuration` when the options do not fit the trace,
  ///   `.trace` for an unreadable or malformed trace, `.invariant` if a self-check fails.
  public func run() throws(ReplayError) -> RunResult {
    if let objects = configuration.slice.sampleObjects {
      var resolved = self
      resolved.configuration.slice.sampleObjects = nil
      resolved.configuration.slice.sampleRate = try fixedSizeRate(objects: objects)
      var result = try resolved.run()
      result.configuration.slice.sampleObjects = objects
      return result
    }
    let batch = RequestBatch(capacity: configuration.batchSize)
    let plan = try makePlan(batch: batch)
    let caches = try makeCaches(plan)
    let tally = try replayBatches(plan, caches, batch: batch)
    return try assemble(plan, caches, tally)
  }

  /// The process's peak resident set size so far, in bytes (Linux reports KiB, macOS bytes).
  static func peakResidentBytes() -> Int64 {
    var usage = rusage()
    #if os(Linux)
      let who = RUSAGE_SELF.rawValue
    #else
      let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    #if os(Linux)
      return Int64(usage.ru_maxrss) * 1024
    #else
      return Int64(usage.ru_maxrss)
    #endif
  }

  /// The rate of a fixed-size sample of `objects` objects, from a pre-pass over the keys of the
  /// trace's first `--num-req` requests.
  private func fixedSizeRate(objects: Int) throws(ReplayError) -> Double {
    do throws(TraceError) {
      let reader = TraceSlice(requestLimit: configuration.slice.requestLimit).apply(
        to: try configuration.trace.open(configuration.readPath ?? configuration.tracePath))
      return try TraceSlice.fixedSizeRate(
        objects: objects, reader: reader, batch: RequestBatch(capacity: configuration.batchSize))
    } catch {
      throw .trace(error)
    }
  }

  /// The trace, sliced as configured (at `rate` instead of the configured rate when given).
  func open(rate: Double? = nil) throws(ReplayError) -> any TraceReader {
    do throws(TraceError) {
      return configuration.slice.at(rate: rate ?? configuration.slice.sampleRate).apply(
        to: try configuration.trace.open(configuration.readPath ?? configuration.tracePath))
    } catch {
      throw .trace(error)
    }
  }

  func next(_ feed: BatchFeed) throws(ReplayError) -> RequestBatch? {
    do throws(TraceError) {
      return try feed.next()
    } catch {
      throw .trace(error)
    }
  }

  func read(_ reader: any TraceReader, into batch: RequestBatch) throws(ReplayError) -> Bool {
    do throws(TraceError) {
      return try reader.read(into: batch)
    } catch {
      throw .trace(error)
    }
  }

}

/// Runs the caches over a batch, serially or across cores, and totals each one's time.
final class SimulationClock: @unchecked Sendable {
  private let nanoseconds: UnsafeMutableBufferPointer<UInt64>
  #if CACHELAB_INJECT_SLOWDOWN
    /// Each simulation's injected slowdown (``InjectedSlowdown``; test builds only).
    var injected: [Double] = []
  #endif

  init(count: Int) {
    nanoseconds = .allocate(capacity: max(count, 1))
    nanoseconds.initialize(repeating: 0)
  }

  deinit {
    nanoseconds.deallocate()
  }

  /// Seconds spent in `body` for simulation `index`.
  func seconds(of index: Int) -> Double {
    Double(nanoseconds[index]) / 1e9
  }

  /// Calls `body` once per simulation; each simulation is touched by one thread only.
  func replay(
    _ targets: [any ReplayTarget], parallel: Bool,
    _ body: @Sendable (any ReplayTarget) -> Void
  ) {
    if parallel && targets.count > 1 {
      DispatchQueue.concurrentPerform(iterations: targets.count) { index in
        self.timed(index) { body(targets[index]) }
      }
    } else {
      for index in targets.indices {
        timed(index) { body(targets[index]) }
      }
    }
  }

  @inline(__always)
  private func timed(_ index: Int, _ body: () -> Void) {
    let start = Stopwatch.nanoseconds()
    body()
    #if CACHELAB_INJECT_SLOWDOWN
      if index < injected.count, injected[index] > 0 {
        InjectedSlowdown.stretch(Stopwatch.nanoseconds() - start, fraction: injected[index])
      }
    #endif
    nanoseconds[index] &+= Stopwatch.nanoseconds() - start
  }
}

extension Replayer {
  /// Refuses a `--ttl` that could expire nothing: a trace without times, or `--ttl trace` on a
  /// format without a TTL column.
  static func check(_ timeToLive: TimeToLive, fits traits: TraceTraits, path: String) throws(ReplayError) {
    if !traits.hasTime {
      throw .configuration(
        ConfigurationError(.invalidValue, "\(path): this trace has no timestamps, so --ttl cannot expire anything"))
    }
    if !timeToLive.hasDefault, !traits.hasTTL {
      throw .configuration(
        ConfigurationError(
          .invalidValue,
          "\(path): this trace's format has no TTL column, so --ttl trace would expire nothing; give a lifetime for every object instead (e.g. --ttl 1h)"
        ))
    }
  }
}
