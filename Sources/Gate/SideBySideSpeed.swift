import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Judges this build's speed against a reference build on one machine: both replay every
/// unit of the baseline in alternation (each unit's pair in turn; which build goes first
/// alternates too), one fresh process per measurement, so both see the same moments of the
/// machine. A warm-up pass (not counted) also finds what the reference cannot replay. After
/// `rounds` full rounds, a configuration whose interval still holds its threshold is measured
/// again, `rounds` more at a time, up to `maximumRounds` (likewise all of them while the
/// overall ratio is undecided); one whose interval lies wholly below it gets `rounds` more
/// once, since a burst of load on a shared machine can sink one configuration's first rounds:
/// its slowdown stands only if it survives them. Costs 2 × units processes per round.
public struct SideBySideSpeed {
  public struct Settings: Sendable {
    /// Full rounds (every configuration measured by both builds once per round); at least 6,
    /// the fewest with which a 95 % signed-rank interval exists.
    public var rounds = 10
    /// Most rounds any configuration gets.
    public var maximumRounds = 60
    /// Allowed slowdown of the geometric mean over all configurations, as a fraction.
    public var overallTolerance = 0.10
    /// Allowed slowdown of one configuration, as a fraction.
    public var configurationTolerance = 0.25
    public var confidence = 0.95

    public init() {}
  }

  /// The two builds.
  public enum Build: Sendable {
    case candidate, reference
  }

  public let plan: SpeedPlan
  public let settings: Settings
  public let candidateName: String
  public let referenceName: String
  /// Measures one unit with one build (a fresh process for real builds).
  let measure: (Build, SpeedPlan.Unit) -> Result<[Int: Double], BuildRunner.Failure>
  /// Told what is happening (for a progress line).
  let progress: (String) -> Void

  public init(
    plan: SpeedPlan, settings: Settings, candidate: String, reference: String,
    measure: @escaping (Build, SpeedPlan.Unit) -> Result<[Int: Double], BuildRunner.Failure>,
    progress: @escaping (String) -> Void = { _ in }
  ) {
    self.plan = plan
    self.settings = settings
    candidateName = candidate
    referenceName = reference
    self.measure = measure
    self.progress = progress
  }

  /// What has been measured so far.
  private struct Samples {
    var logRatios: [[Double]]
    var candidate: [[Double]]
    var reference: [[Double]]
    var roundMeans: [Double] = []
    var roundCandidate: [Double] = []
    var roundReference: [Double] = []
    /// Configurations left out, with the reason.
    var excluded: [Int: String] = [:]
    var unusable: [Int: Int] = [:]

    init(count: Int) {
      logRatios = Array(repeating: [], count: count)
      candidate = logRatios
      reference = logRatios
    }
  }

  /// Measures and judges.
  ///
  /// - Throws: ``BuildRunner/Failure`` when this build cannot replay a unit, when the
  ///   reference can replay none, or when either fails after the warm-up.
  public func run() throws(BuildRunner.Failure) -> SpeedVerdict {
    let started = POSIXIO.monotonicNanoseconds()
    var samples = Samples(count: plan.configurations.count)
    try warmUp(&samples)
    var round = 0
    while round < settings.rounds {
      progress("round \(round + 1) of \(settings.rounds)")
      try measureRound(round, only: nil, &samples)
      round += 1
    }
    var verdict = judge(samples)
    // Configurations judged slower that have had their one further batch.
    var confirmed: Set<Int> = []
    while round < settings.maximumRounds {
      let slower = Set(verdict.configurations.filter(\.isSlower).map(\.configuration)).subtracting(confirmed)
      confirmed.formUnion(slower)
      let undecided = Set(verdict.configurations.filter(\.isUndecided).map(\.configuration)).union(slower)
      let overallUndecided = verdict.overall?.isUndecided == true
      guard overallUndecided || !undecided.isEmpty else { break }
      let batchEnd = min(round + settings.rounds, settings.maximumRounds)
      while round < batchEnd {
        progress(
          overallUndecided
            ? "round \(round + 1): the overall ratio is still undecided"
            : "round \(round + 1): \(undecided.count) configurations undecided or slower")
        try measureRound(round, only: overallUndecided ? nil : undecided, &samples)
        round += 1
      }
      verdict = judge(samples)
    }
    verdict.seconds = Double(POSIXIO.monotonicNanoseconds() - started) / 1e9
    return verdict
  }

  /// One pass over round 0's units by both builds, not counted: warms caches and files, and
  /// leaves out the groups the reference cannot replay.
  private func warmUp(_ samples: inout Samples) throws(BuildRunner.Failure) {
    progress("warm-up round")
    var replayed = false
    var firstFailure: BuildRunner.Failure?
    for runs in plan.units {
      var failedGroups: [String: String] = [:]
      for unit in runs.first ?? [] {
        if case .failure(let failure) = measure(.candidate, unit) { throw failure }
        switch measure(.reference, unit) {
        case .success: replayed = true
        case .failure(let failure):
          firstFailure = firstFailure ?? failure
          failedGroups[unit.group] = failure.message
        }
      }
      for unit in runs.joined() {
        guard let reason = failedGroups[unit.group] else { continue }
        for configuration in unit.configurations.values {
          samples.excluded[configuration] = "the reference build cannot replay it (\(reason))"
        }
      }
    }
    if !replayed, let firstFailure { throw firstFailure }
  }

  /// Measures round `round`'s units (those holding a configuration in `only`, when given),
  /// each by both builds back to back; a full round also records its mean log ratio.
  private func measureRound(_ round: Int, only: Set<Int>?, _ samples: inout Samples) throws(BuildRunner.Failure) {
    var ratios: [Double] = []
    var candidateSpeeds: [Double] = []
    var referenceSpeeds: [Double] = []
    for (position, unit) in plan.units(ofRound: round).enumerated() {
      let configurations = Set(unit.configurations.values)
      if configurations.allSatisfy({ samples.excluded[$0] != nil }) { continue }
      if let only, configurations.isDisjoint(with: only) { continue }
      let order: [Build] = (round + position) % 2 == 0 ? [.candidate, .reference] : [.reference, .candidate]
      var speeds: [Build: [Int: Double]] = [:]
      for build in order {
        switch measure(build, unit) {
        case .success(let measured): speeds[build] = measured
        case .failure(let failure): throw failure
        }
      }
      for configuration in configurations where samples.excluded[configuration] == nil {
        guard let new = speeds[.candidate]?[configuration], let old = speeds[.reference]?[configuration],
          new > 0, old > 0, new.isFinite, old.isFinite
        else {
          samples.unusable[configuration, default: 0] += 1
          continue
        }
        samples.logRatios[configuration].append(log(new / old))
        samples.candidate[configuration].append(new)
        samples.reference[configuration].append(old)
        ratios.append(log(new / old))
        candidateSpeeds.append(new)
        referenceSpeeds.append(old)
      }
    }
    if only == nil, !ratios.isEmpty {
      samples.roundMeans.append(ratios.reduce(0, +) / Double(ratios.count))
      samples.roundCandidate += candidateSpeeds
      samples.roundReference += referenceSpeeds
    }
  }

  /// The verdict on what has been measured.
  private func judge(_ samples: Samples) -> SpeedVerdict {
    var judged: [SpeedVerdict.Judged] = []
    var unjudged: [SpeedVerdict.Unjudged] = []
    for (index, configuration) in plan.configurations.enumerated() {
      if let reason = samples.excluded[index] {
        unjudged.append(.init(label: configuration.label, report: configuration.report, reason: reason))
        continue
      }
      let ratios = samples.logRatios[index]
      guard ratios.count >= 6 else {
        unjudged.append(
          .init(
            label: configuration.label, report: configuration.report,
            reason: "only \(ratios.count) rounds gave a time to compare (\(samples.unusable[index] ?? 0) measured 0 s)")
        )
        continue
      }
      var ratio = SpeedVerdict.Judged.configuration(
        label: configuration.label, report: configuration.report, logRatios: ratios,
        candidate: samples.candidate[index], reference: samples.reference[index],
        threshold: 1 - settings.configurationTolerance, confidence: settings.confidence)
      ratio.configuration = index
      judged.append(ratio)
    }
    let overall =
      samples.roundMeans.isEmpty
      ? nil
      : SpeedVerdict.Judged.overall(
        roundMeans: samples.roundMeans, candidate: samples.roundCandidate, reference: samples.roundReference,
        threshold: 1 - settings.overallTolerance, confidence: settings.confidence)
    return SpeedVerdict(
      candidate: candidateName, reference: referenceName, configurations: judged, overall: overall,
      unjudged: unjudged, fullRounds: samples.roundMeans.count, confidence: settings.confidence, seconds: 0)
  }
}
