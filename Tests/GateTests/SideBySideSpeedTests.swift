import CacheCore
import Foundation
import Gate
import Reports
import TestSupport
import Testing

/// Two builds that take a known time, with seeded noise shaped like a shared machine's (a
/// third of the measurements 20 % off, the rest 2.5 %): what the side-by-side judgement does
/// with identical builds, a uniform slowdown, one slower policy, and builds that fail.
final class FakeBuilds: @unchecked Sendable {
  /// This build's speed ÷ the reference's, per unit group (default 1).
  var candidateFactor: (String) -> Double = { _ in 1 }
  /// Groups the reference cannot replay.
  var referenceCannot: Set<String> = []
  var candidateCannot: Set<String> = []
  /// Calls in order: which build measured which unit.
  var calls: [(build: SideBySideSpeed.Build, group: String)] = []
  private var state: UInt64

  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

  private func uniform() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (Double(state >> 11) + 0.5) / Double(1 << 53)
  }

  private func normal() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) }

  func measure(_ build: SideBySideSpeed.Build, _ unit: SpeedPlan.Unit) -> Result<[Int: Double], BuildRunner.Failure> {
    calls.append((build, unit.group))
    let cannot = build == .candidate ? candidateCannot : referenceCannot
    if cannot.contains(unit.group) {
      return .failure(BuildRunner.Failure(executable: "\(build)", unit: unit.group, message: "unknown policy"))
    }
    var speeds: [Int: Double] = [:]
    for configuration in Set(unit.configurations.values) {
      let base = 1e6 * Double(10 + configuration % 7)
      let factor = build == .candidate ? candidateFactor(unit.group) : 1
      let spread = uniform() < 1.0 / 3 ? 0.2 : 0.025
      speeds[configuration] = base * factor * exp(spread * normal())
    }
    return .success(speeds)
  }
}

@Suite struct SideBySideSpeedTests {
  static let baseline = Paths.packageRoot.appendingPathComponent("Reports/baseline").path

  static func plan() throws -> SpeedPlan {
    let reports = try RegressionGate.reports(in: baseline)
    return try SpeedPlan(try reports.map { try RegressionGate.table($0) }, locate: { _ in nil })
  }

  static func judge(_ builds: FakeBuilds, rounds: Int = 10) throws -> SpeedVerdict {
    var settings = SideBySideSpeed.Settings()
    settings.rounds = rounds
    settings.maximumRounds = rounds * 6
    let speed = SideBySideSpeed(
      plan: try plan(), settings: settings, candidate: "new", reference: "old",
      measure: { builds.measure($0, $1) })
    return try speed.run()
  }

  @Test func thePlanHasOneUnitPerPolicyOrPresetAndRun() throws {
    let plan = try Self.plan()
    let policies = try ReportTable(contentsOf: Self.baseline + "/policies.csv")
    let presets = try ReportTable(contentsOf: Self.baseline + "/presets.csv")
    #expect(plan.configurations.count == (policies.rows.count + presets.rows.count) / 5, "5 repeats per configuration")
    #expect(plan.units.map(\.count) == [5, 5], "one run per seed in each report")
    #expect(plan.units[0][0].count == policies.rows.count / 10, "one unit per policy (two sizes) in each run")
    #expect(plan.units[1][0].count == presets.rows.count / 5, "one unit per preset in each run")
    for unit in plan.units.joined().joined() {
      let table = try ReportTable(path: unit.fileName, text: unit.text)
      let runs = try ReportReplay.runs(table)
      #expect(runs.count == 1 && runs[0].expected.count == table.rows.count, "\(unit.group): one full run")
      #expect(Set(unit.configurations.values).count == table.rows.count)
      #expect(Set(table.rows.map { table.value($0, "seed")! }) == ["\(unit.run)"])
    }
    let located = try SpeedPlan([policies], locate: { "/located/" + $0 })
    #expect(located.units[0][0][0].text.contains("\n/located/Traces/zipf-demo.oracleGeneral.bin,"))
  }

  @Test func identicalBuildsPass() throws {
    for seed in 1...3 as ClosedRange<UInt64> {
      let verdict = try Self.judge(FakeBuilds(seed: seed))
      #expect(!verdict.failed, "seed \(seed): \(verdict.slower.map(\.label))")
      let overall = try #require(verdict.overall)
      #expect(overall.lower < 1 && 1 < overall.upper, "seed \(seed): \(overall.lower)…\(overall.upper)")
      let configurations = try Self.plan().configurations.count
      #expect(verdict.unjudged.isEmpty && verdict.configurations.count == configurations)
    }
  }

  @Test func aUniformFifteenPercentSlowdownFailsOverall() throws {
    let builds = FakeBuilds(seed: 7)
    builds.candidateFactor = { _ in 0.85 }
    let verdict = try Self.judge(builds)
    let overall = try #require(verdict.overall)
    #expect(overall.isSlower && verdict.failed, "overall ×\(overall.ratio) (\(overall.lower)…\(overall.upper))")
    #expect(abs(overall.ratio - 0.85) < 0.03)
  }

  @Test func onePolicyThirtyPercentSlowerFailsAloneWithItsNameAndInterval() throws {
    for seed in 1...4 as ClosedRange<UInt64> {
      let builds = FakeBuilds(seed: seed)
      builds.candidateFactor = { $0 == "lru" ? 0.70 : 1 }
      let verdict = try Self.judge(builds)
      let slower = verdict.slower.map(\.label)
      #expect(!slower.isEmpty && slower.allSatisfy { $0.hasPrefix("lru @") }, "seed \(seed): \(slower)")
      #expect(verdict.overall?.isSlower == false)
      for judged in verdict.slower {
        #expect(judged.upper < 0.75 && judged.lower < judged.ratio)
        #expect(judged.rounds >= 20, "a slowdown stands only after a further batch: \(judged.rounds)")
      }
    }
  }

  @Test func aBurstOfLoadOnOnePolicysFirstRoundsDoesNotFailIt() throws {
    for seed in 1...3 as ClosedRange<UInt64> {
      let builds = FakeBuilds(seed: seed)
      let units = try Self.plan().units(ofRound: 0).count
      // The warm-up and the 10 full rounds: sieve's candidate runs at half speed throughout.
      let burstCalls = 2 * units + 10 * 2 * units
      builds.candidateFactor = { [unowned builds] in $0 == "sieve" && builds.calls.count <= burstCalls ? 0.5 : 1 }
      let verdict = try Self.judge(builds)
      let sieve = verdict.configurations.filter { $0.label.hasPrefix("sieve @") }
      #expect(!verdict.failed, "seed \(seed): \(verdict.slower.map { "\($0.label) ×\($0.ratio)" })")
      #expect(sieve.count == 2 && sieve.allSatisfy { $0.rounds > 10 }, "\(sieve.map(\.rounds))")
    }
  }

  @Test func whichBuildGoesFirstAlternates() throws {
    let builds = FakeBuilds(seed: 3)
    _ = try Self.judge(builds)
    let units = try Self.plan().units(ofRound: 0).count
    // After the warm-up (each unit: this build, then the reference), round 0 starts with
    // this build on its first unit and the reference on its second.
    let round = Array(builds.calls.dropFirst(2 * units).prefix(4))
    #expect(round.map(\.build) == [.candidate, .reference, .reference, .candidate])
    #expect(round[0].group == round[1].group && round[2].group == round[3].group && round[0].group != round[2].group)
  }

  @Test func configurationsStillUndecidedGetMoreRounds() throws {
    let builds = FakeBuilds(seed: 5)
    builds.candidateFactor = { $0 == "sieve" ? 0.76 : 1 }
    let verdict = try Self.judge(builds)
    let sieve = verdict.configurations.filter { $0.label.hasPrefix("sieve @") }
    #expect(sieve.contains { $0.rounds > 10 }, "\(sieve.map(\.rounds))")
    #expect(sieve.allSatisfy { $0.rounds <= 60 })
    #expect(verdict.fullRounds == 10)
  }

  @Test func whatTheReferenceCannotReplayIsListedNotJudged() throws {
    let builds = FakeBuilds(seed: 2)
    builds.referenceCannot = ["sieve", "preset:nuke"]
    let verdict = try Self.judge(builds)
    #expect(Set(verdict.unjudged.map(\.label)) == ["sieve @ 0.01", "sieve @ 0.1", "preset:nuke"])
    #expect(verdict.unjudged.allSatisfy { $0.reason.contains("reference build cannot replay it (unknown policy)") })
    // Every configuration of the baseline but the three listed.
    let configurations = try Self.plan().configurations.count
    #expect(verdict.configurations.count == configurations - 3 && !verdict.failed)
  }

  @Test func buildsThatCannotReplayAreErrors() throws {
    let nothing = FakeBuilds(seed: 1)
    nothing.referenceCannot = Set(try Self.plan().units(ofRound: 0).map(\.group))
    #expect(throws: BuildRunner.Failure.self) { try Self.judge(nothing) }
    let broken = FakeBuilds(seed: 1)
    broken.candidateCannot = ["lru"]
    #expect(throws: BuildRunner.Failure.self) { try Self.judge(broken) }
  }
}
