import CacheCore
import Stats
import Traces

/// `events`: an existing trace with app lifecycle events added, for the cache engine's
/// presets. The trace's own time is time in use: sessions of mean `session` end with
/// `background` (and with probability `terminate` a `terminate`, then `launch` instead of
/// `foreground` at the next start), followed by an idle period of mean `idle` inserted into
/// the timeline (later requests move later by it, so objects age while the app is away);
/// `memory_warning`s arrive as a Poisson process of mean interval `warnings` of use.
/// Requests keep their order, keys, sizes and operations; all durations are exponential.
/// Writes CacheLab CSV (`time,op,key,size,ttl,event`; the input's TTLs are kept).
public struct EventsGenerator: TraceGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "events", summary: "lifecycle events (background, terminate, launch, memory warnings) over an existing trace",
    parameters: [
      ParameterSpec("trace", default: "", .text, help: "the trace to add events to (required; any readable format)"),
      ParameterSpec("format", default: "auto", .text, help: "its format (auto: inferred as --trace does)"),
      ParameterSpec("session", default: "20m", .duration, help: "mean session length (time in use)"),
      ParameterSpec("idle", default: "2h", .duration, help: "mean time in the background between sessions"),
      ParameterSpec(
        "terminate", default: "0.2", .real(0...1), help: "probability that the system terminates a backgrounded app"),
      ParameterSpec(
        "warnings", default: "2h", .durationOrNever, help: "mean time in use between memory warnings, or never"),
    ],
    outputFormat: "cachelab",
    example: "gen:events:trace=Traces/zipf-demo.oracleGeneral.bin,session=10m,idle=1h")

  public let tracePath: String
  public let traceSpec: TraceSpec
  public let session: Int64
  public let idle: Int64
  public let terminate: Double
  /// Mean µs between memory warnings, or nil for none.
  public let warnings: Int64?

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    tracePath = parameters.string("trace")
    guard !tracePath.isEmpty else {
      throw ConfigurationError(.invalidValue, "events: give the trace to add events to, as trace=PATH")
    }
    do {
      let format = parameters.string("format")
      traceSpec = try TraceSpec(format: format == "auto" ? nil : format, inferringFrom: tracePath)
    } catch let error as ConfigurationError {
      throw error
    } catch {
      throw ConfigurationError(.invalidValue, "events: \(error)")
    }
    session = parameters.duration("session")
    idle = parameters.duration("idle")
    guard session > 0 else { throw ConfigurationError(.invalidValue, "events: session must be positive") }
    terminate = parameters.real("terminate")
    let warnings = parameters.duration("warnings")
    self.warnings = warnings > 0 ? warnings : nil
  }

  public func write(seed: UInt64, to path: String, progress: (Int64, Int64) -> Void) throws {
    let reader = try traceSpec.open(tracePath)
    guard reader.traits.hasTime else {
      throw ConfigurationError(.invalidValue, "events: \(tracePath) has no timestamps, so it has no sessions to mark")
    }
    let writer = try CacheLabTraceWriter(path: path)
    var timeline = Timeline(self, random: GSLRandom(seed: KeyHash.mix(seed ^ 0xe7_e7)))
    let batch = RequestBatch()
    var written: Int64 = 0
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        let request = batch[index]
        for (time, event) in timeline.events(before: request.time) {
          var attributes = RequestAttributes()
          attributes.event = event
          try writer.write(Request(time: time, key: 0, size: 0, operation: .event), attributes: attributes)
        }
        var moved = request
        moved.time += timeline.inserted
        try writer.write(moved, attributes: batch.hasAttributes ? batch.attributes(index) : nil)
      }
      written += Int64(batch.count)
      progress(written, reader.knownRequestCount ?? written)
    }
    try writer.commit()
  }

  /// The session clock: when the current session ends and the next warning comes, in the
  /// input's time, and how much idle time has been inserted so far.
  struct Timeline {
    let generator: EventsGenerator
    let random: GSLRandom
    var sessionEnd: Int64?
    var nextWarning: Int64?
    var inserted: Int64 = 0

    init(_ generator: EventsGenerator, random: GSLRandom) {
      self.generator = generator
      self.random = random
    }

    func draw(_ mean: Int64) -> Int64 { Int64(random.exponential(mean: Double(mean)).rounded()) }

    /// The events (output time, event) due before input time `time`, in order.
    mutating func events(before time: Int64) -> [(Int64, LifecycleEvent)] {
      if sessionEnd == nil {
        sessionEnd = time + max(1, draw(generator.session))
        nextWarning = generator.warnings.map { time + max(1, draw($0)) }
        return []
      }
      var due: [(Int64, LifecycleEvent)] = []
      while let end = sessionEnd, end <= time || (nextWarning.map { $0 <= time } ?? false) {
        if let warning = nextWarning, warning <= time, warning < end {
          due.append((warning + inserted, .memoryWarning))
          nextWarning = warning + max(1, draw(generator.warnings ?? 1))
          continue
        }
        due.append((end + inserted, .background))
        let terminated = random.uniform() < generator.terminate
        if terminated { due.append((end + inserted, .terminate)) }
        inserted += draw(generator.idle)
        due.append((end + inserted, terminated ? .launch : .foreground))
        sessionEnd = end + max(1, draw(generator.session))
      }
      return due
    }
  }
}
