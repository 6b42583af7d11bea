import CacheCore
import Policies
import Replay
import TestSupport
import Testing
import Traces

/// `wtinylfu:adaptive=hill-climber`: the climber's rule worked by hand, and the shapes
/// Caffeine's project publishes for its adaptive window: it follows LRU on recency-skewed
/// traces and frequency (LFU, the static W-TinyLFU) on frequency-skewed ones.
@Suite struct HillClimberTests {
  /// Capacity 100: samples of 1000 requests, steps of 6.25 decaying by 0.98 per sample.
  @Test func climberWorkedExample() {
    var climber = HillClimber(
      stepShare: 0.0625, sampleMultiple: 10, stepDecay: 0.98, sampleDecay: 1, restartThreshold: 0.05, tolerance: 0)
    climber.start(objects: 100, units: 100)
    func sample(hitPercent: Int) -> [Double] {
      (0..<1000).map { climber.record(hit: $0 % 1000 < hitPercent * 10) }.filter { $0 != 0 }
    }
    // First sample: no drop against 0 %, so the initial direction (shrink) stays; the jump
    // from 0 % restarts the step.
    #expect(sample(hitPercent: 50) == [-6.25])
    // A drop turns around (grow); a change of 10 points restarts the step at 6.25.
    #expect(sample(hitPercent: 40) == [6.25])
    // A small rise keeps the direction, with the step decayed once.
    #expect(sample(hitPercent: 41) == [6.25 * 0.98])
    // A small drop turns around again.
    #expect(sample(hitPercent: 40) == [-(6.25 * 0.98 * 0.98)])
  }

  /// Nothing is counted before `start`, and the climb stops once the step has decayed
  /// below 0.01 (the sample period becomes endless).
  @Test func climbStopsWhenTheStepIsSpent() {
    var climber = HillClimber(
      stepShare: 0.0625, sampleMultiple: 1, stepDecay: 0.5, sampleDecay: 1, restartThreshold: 1, tolerance: 0)
    climber.start(objects: 10, units: 10)
    var moves = 0
    for index in 0..<10_000 where climber.record(hit: index % 3 == 0) != 0 { moves += 1 }
    // Steps 0.625, 0.3125, …, 0.0195 move; after the 6th decay the step (0.0098) is spent.
    #expect(moves == 6)
  }

  static func run(_ format: String, _ trace: String, sizes: String) throws -> RunResult {
    try Replayer(
      RunConfiguration(
        tracePath: Paths.sharedTrace(trace), trace: TraceSpec(parsing: format),
        policies: PolicySpec.parseList("lru,lfu,wtinylfu,wtinylfu:adaptive=hill-climber"),
        capacities: CapacitySpec.parseList(sizes, objectMode: true), ignoreSize: true)
    ).run()
  }

  static func hitRatios(_ result: RunResult) -> [String: Double] {
    Dictionary(uniqueKeysWithValues: result.caches.map { ($0.label, $0.hitRatio) })
  }

  /// Corda's vault trace is recency-skewed: the static 1 % window is almost useless there
  /// (LFU hits 0.4 %), and the climber grows the window until W-TinyLFU nearly matches LRU.
  @Test(.enabled(if: Paths.sharedTraceAvailable("corda/trace_vaultservice.trace")))
  func followsLRUOnARecencySkewedTrace() throws {
    let ratios = Self.hitRatios(try Self.run("int64-be", "corda/trace_vaultservice.trace", sizes: "500"))
    let adaptive = ratios["wtinylfu:adaptive=hill-climber"]!
    #expect(ratios["lfu"]! < 0.05 && ratios["wtinylfu"]! < 0.05)
    #expect(adaptive > ratios["wtinylfu"]! + 0.2)
    #expect(adaptive > ratios["lru"]! - 0.05)
  }

  /// The climber really moved the window there: from 5 objects (1 %) to more than ten times
  /// that.
  @Test(.enabled(if: Paths.sharedTraceAvailable("corda/trace_vaultservice.trace")))
  func windowGrowsOnARecencySkewedTrace() throws {
    let requests = try TraceSpec(parsing: "int64-be").open(Paths.sharedTrace("corda/trace_vaultservice.trace"))
      .collect()
    var policy = try WTinyLFU(
      capacity: 500, parameters: PolicySpec(parsing: "wtinylfu:adaptive=hill-climber").parameters,
      context: PolicyContext(objectMode: true))
    #expect(policy.currentWindowCapacity == 5)
    var ignored = IgnoringVictims()
    for request in requests {
      var unit = request
      unit.size = 1
      _ = policy.handle(unit, collecting: &ignored)
    }
    #expect(policy.currentWindowCapacity > 50)
    try policy.checkInvariants()
  }

  /// `loop` (LRU's worst case) and `2_pools` are frequency-skewed: the adaptive window stays
  /// with the static W-TinyLFU and LFU, far above LRU.
  @Test(.enabled(if: Paths.sharedTraceAvailable("lirs/loop.trace")), arguments: [("loop", "512"), ("2_pools", "200")])
  func followsFrequencyOnFrequencySkewedTraces(trace: String, size: String) throws {
    let ratios = Self.hitRatios(try Self.run("txt", "lirs/\(trace).trace", sizes: size))
    let adaptive = ratios["wtinylfu:adaptive=hill-climber"]!
    #expect(adaptive >= ratios["wtinylfu"]! - 0.01)
    #expect(adaptive >= max(ratios["lfu"]!, ratios["lru"]!) - 0.01)
    #expect(adaptive > ratios["lru"]! + 0.1)
  }

  /// Scarab's recommendation trace mixes both: the adaptive window beats LRU, LFU and the
  /// static window at 1000 objects.
  @Test(.enabled(if: Paths.sharedTraceAvailable("scarab/scarab-recs.trace")))
  func beatsBothOnScarab() throws {
    let ratios = Self.hitRatios(try Self.run("int64-be", "scarab/scarab-recs.trace", sizes: "1000"))
    let adaptive = ratios["wtinylfu:adaptive=hill-climber"]!
    for other in ["lru", "lfu", "wtinylfu"] { #expect(adaptive > ratios[other]!, "\(other)") }
  }
}
