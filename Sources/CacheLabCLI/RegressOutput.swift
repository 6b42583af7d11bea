import CacheCore
import Gate
import Reports

/// What `cachelab regress` prints about results and speed, and the JUnit cases for each.
enum RegressOutput {
  /// Prints one report's results; returns its JUnit case.
  static func results(_ outcome: RegressionGate.Outcome) -> JUnitReport.Case {
    let path = outcome.path
    if !outcome.missingColumns.isEmpty {
      print(
        "\(path): note: an older baseline without columns \(outcome.missingColumns.joined(separator: ", ")) (refresh with --update)"
      )
    }
    let differences = outcome.differences
    let listed = differences.prefix(40).map { "  \($0)" }
    if differences.isEmpty {
      print("\(path): \(outcome.rows) rows, \(outcome.runs) runs: every deterministic column matches")
    } else {
      print("\(path): \(differences.count) values changed:\n" + listed.joined(separator: "\n"))
      if differences.count > 40 { print("  … and \(differences.count - 40) more") }
    }
    return JUnitReport.Case(
      name: "\(path): results",
      failure: differences.isEmpty ? nil : "\(differences.count) values changed:\n" + listed.joined(separator: "\n"))
  }

  /// Prints the speed verdict (or why there is none) and adds a JUnit case per configuration
  /// and one for the overall speed; returns whether speed fails the gate.
  static func speed(_ speed: RegressionGate.Speed, into junit: inout JUnitReport, reports: [String]) -> Bool {
    switch speed {
    case .skipped(let reason), .notJudged(let reason):
      if case .notJudged = speed { print(reason) }
      let why = reason.hasPrefix("speed not judged: ") ? String(reason.dropFirst("speed not judged: ".count)) : reason
      for label in configurationLabels(reports) {
        junit.cases.append(JUnitReport.Case(name: "speed: \(label)", skipped: why))
      }
      junit.cases.append(JUnitReport.Case(name: "speed: overall", skipped: why))
      return false
    case .judged(let verdict):
      printVerdict(verdict)
      for judged in verdict.configurations {
        junit.cases.append(
          JUnitReport.Case(
            name: "speed: \(judged.report): \(judged.label)", failure: judged.isSlower ? describe(judged) : nil))
      }
      for unjudged in verdict.unjudged {
        junit.cases.append(
          JUnitReport.Case(name: "speed: \(unjudged.report): \(unjudged.label)", skipped: unjudged.reason))
      }
      if let overall = verdict.overall {
        junit.cases.append(
          JUnitReport.Case(name: "speed: overall", failure: overall.isSlower ? describe(overall) : nil))
      } else {
        junit.cases.append(JUnitReport.Case(name: "speed: overall", skipped: "no configuration was judged"))
      }
      return verdict.failed
    }
  }

  /// `×0.70 (95 % interval ×0.66…×0.74, 20 rounds; fails below ×0.75)`.
  static func describe(_ judged: SpeedVerdict.Judged) -> String {
    "×\(Decimal.fixed(judged.ratio, 2)) (95 % interval ×\(Decimal.fixed(judged.lower, 2))…×\(Decimal.fixed(judged.upper, 2)), \(judged.rounds) rounds; fails below ×\(Decimal.fixed(judged.threshold, 2)))"
  }

  private static func printVerdict(_ verdict: SpeedVerdict) {
    let counted = verdict.configurations.count
    let extended = verdict.configurations.filter { $0.rounds > verdict.fullRounds }
    let most = verdict.configurations.map(\.rounds).max() ?? 0
    print("speed: side by side in fresh processes: this build \(verdict.candidate), reference \(verdict.reference)")
    print(
      "speed: \(counted) configurations, \(verdict.fullRounds) full rounds after a warm-up"
        + (extended.isEmpty ? "" : ", \(extended.count) measured again up to \(most) rounds")
        + ", \(Decimal.fixed(verdict.seconds, 0)) s")
    if let overall = verdict.overall {
      print("speed: overall (geometric mean) \(describe(overall)): \(overall.isSlower ? "SLOWER" : "not slower")")
    }
    let slower = verdict.slower
    if slower.isEmpty {
      let ratios = verdict.configurations.map(\.ratio)
      if let low = ratios.min(), let high = ratios.max(), let threshold = verdict.configurations.first?.threshold {
        print(
          "speed: no configuration slower than ×\(Decimal.fixed(threshold, 2)) with 95 % confidence (estimates ×\(Decimal.fixed(low, 2))…×\(Decimal.fixed(high, 2)))"
        )
      }
    } else {
      print("speed: \(slower.count) of \(counted) configurations slower (the whole 95 % interval below the threshold):")
      for judged in slower {
        print(
          "  \(judged.report): \(judged.label): \(describe(judged)), \(Decimal.fixed(judged.candidateSpeed / 1e6, 2)) vs \(Decimal.fixed(judged.referenceSpeed / 1e6, 2)) M req/s"
        )
      }
    }
    var byReason: [(String, [String])] = []
    for unjudged in verdict.unjudged {
      if let index = byReason.firstIndex(where: { $0.0 == unjudged.reason }) {
        byReason[index].1.append(unjudged.label)
      } else {
        byReason.append((unjudged.reason, [unjudged.label]))
      }
    }
    for (reason, labels) in byReason {
      print("speed: not judged, \(reason): \(labels.joined(separator: ", "))")
    }
  }

  /// The configuration labels of the baseline reports (for skipped JUnit cases); none when a
  /// report cannot be read (its results case says why).
  static func configurationLabels(_ reports: [String]) -> [String] {
    guard let tables = try? reports.map({ path throws(FileError) in try RegressionGate.table(path) }),
      let plan = try? SpeedPlan(tables, locate: { _ in nil })
    else { return [] }
    return plan.configurations.map { "\($0.report): \($0.label)" }
  }
}
