import CacheCore
import Stats

extension ReportComparison {
  /// The name of a line: `lru @ 0.05 → sieve @ 0.05`, with report paths when the labels agree.
  func name(_ line: PairComparison) -> (baseline: String, candidate: String) {
    let a = line.baseline
    let b = line.candidate
    guard a.label == b.label, a.source != b.source else { return (a.label, b.label) }
    return ("\(a.source): \(a.label)", "\(b.source): \(b.label)")
  }

  /// The sample count as a reader wants it: `8 windows`, `4 batches`, `5 seeds`, `5/5 repeats`.
  static func count(_ line: PairComparison) -> String {
    switch line.test {
    case .pairedT:
      let pairs = line.pairs ?? 0
      if line.samples == .repeats { return "\(pairs) seeds" }
      if case .series(_, let numerators, _, _) = line.baseline.windows, numerators.count != pairs {
        return "\(pairs) batches"
      }
      return "\(pairs) windows"
    case .welch:
      let unit = line.samples == .windows ? "batches" : "repeats"
      return "\(line.countBaseline)/\(line.countCandidate) \(unit)"
    case .exact, .none:
      let repeats = line.baseline.repeats.count
      return repeats > 1 ? "\(repeats) repeats" : "1 run"
    }
  }

  /// The table's rows (header first), for the terminal and Markdown.
  public func rows() -> [[String]] {
    let withHolm = holm.contains { $0 != nil }
    var rows = [
      ["baseline → candidate", "test", "n", "baseline", "candidate", "difference", "95 % CI", "p", "p Wilcoxon"]
        + (withHolm ? ["p Holm"] : [])
    ]
    for (index, line) in lines.enumerated() {
      let names = name(line)
      let tested = line.pValue != nil
      rows.append(
        [
          "\(names.baseline) → \(names.candidate)", line.test.rawValue, Self.count(line),
          metric.format(line.baseline.overall), metric.format(line.candidate.overall),
          metric.formatDifference(line.difference),
          tested ? metric.formatInterval(line.difference - line.halfWidth, line.difference + line.halfWidth) : "-",
          line.pValue.map(Self.probability) ?? "-", line.wilcoxon?.pValue.map(Self.probability) ?? "-",
        ] + (withHolm ? [holm[index].map(Self.probability) ?? "-"] : []))
    }
    return rows
  }

  /// What the columns mean and what applies to which line.
  public func footer() -> [String] {
    let repeats = (lines.first?.baseline.repeats.count ?? 1) > 1
    var text = [
      metric.unit == .ratio
        ? "baseline, candidate: overall \(metric.name), over everything counted\(repeats ? " in every repeat" : "")"
        : "baseline, candidate: \(metric.name)\(repeats ? ", mean over repeats" : "")"
    ]
    let fromSeries = lines.contains {
      [$0.baseline, $0.candidate].contains { $0.source != "run" && $0.windowNumbers != nil }
    }
    if metric.parts == nil, fromSeries {
      text.append("from a window-series file, which holds only windows: the mean of its windows' \(metric.name)")
    }
    let tests = Set(lines.map(\.test))
    let paired = Set(lines.filter { $0.test == .pairedT }.map(\.samples))
    if !paired.isEmpty {
      let weight =
        metric.parts == nil
        ? "each window's own \(metric.name), every window weighing the same"
        : metric.name == "byte_hit_ratio" ? "byte-weighted" : "request-weighted"
      let pairs = paired.map { $0 == .windows ? "windows, \(weight)" : "seeds" }.sorted().joined(separator: "; ")
      text.append(
        "paired-t: t-test on the per-pair differences (\(pairs)); p Wilcoxon: signed-rank test on the same pairs")
      if metric.parts == nil, paired.contains(.windows) {
        text.append(
          "difference over windows: the mean of the per-window differences, which need not equal candidate − baseline of the whole-run figures"
        )
      }
    }
    if tests.contains(.welch) { text.append("welch: Welch's unequal-variance t-test on unpaired samples") }
    if tests.contains(.exact) {
      text.append(
        "exact: candidate − baseline, no sampling; deterministic — no test needed (add --window 100000r or --window 1h for a view over time)"
      )
    }
    if holm.contains(where: { $0 != nil }) {
      text.append(
        "p Holm: p adjusted by Holm's method over the \(holm.compactMap { $0 }.count) tested comparisons (family-wise error rate)"
      )
    }
    var order: [String] = []
    var applies: [String: [String]] = [:]
    for line in lines {
      for note in line.notes {
        if applies[note] == nil { order.append(note) }
        let names = name(line)
        applies[note, default: []].append("\(names.baseline) → \(names.candidate)")
      }
    }
    for note in order {
      let which = applies[note] ?? []
      text.append(which.count == lines.count ? note : "\(which.joined(separator: "; ")): \(note)")
    }
    return text
  }

  /// The comparison as an aligned table with its footer.
  public func render() -> String {
    TableReport.align(rows()) + footer().map { "  " + $0 + "\n" }.joined()
  }

  /// The comparison as CSV: the original columns, then test, pairs, p_holm and the rest.
  public func csv() -> String {
    var text =
      "metric,baseline,candidate,samples,n_baseline,mean_baseline,ci95_baseline,n_candidate,mean_candidate,ci95_candidate,difference,difference_ci95_low,difference_ci95_high,t,df,p_value,test,pairs,p_holm,p_wilcoxon,wilcoxon_method,overall_baseline,overall_candidate,note\n"
    for (index, line) in lines.enumerated() {
      let names = name(line)
      let tested = line.pValue != nil
      let fields: [String] = [
        metric.name, names.baseline, names.candidate, line.samples.rawValue, String(line.countBaseline),
        Self.number(line.meanBaseline), Self.number(line.halfWidthBaseline), String(line.countCandidate),
        Self.number(line.meanCandidate), Self.number(line.halfWidthCandidate), Self.number(line.difference),
        tested ? Self.number(line.difference - line.halfWidth) : "",
        tested ? Self.number(line.difference + line.halfWidth) : "", line.t.map(Self.number) ?? "",
        line.degreesOfFreedom.map(Self.number) ?? "", line.pValue.map(Self.number) ?? "", line.test.rawValue,
        line.pairs.map(String.init) ?? "", holm[index].map(Self.number) ?? "",
        line.wilcoxon?.pValue.map(Self.number) ?? "", line.wilcoxon?.method.rawValue ?? "",
        Self.number(line.baseline.overall), Self.number(line.candidate.overall), line.notes.joined(separator: "; "),
      ]
      text += fields.map(CSVReport.quote).joined(separator: ",") + "\n"
    }
    return text
  }

  static func number(_ value: Double) -> String {
    value.isFinite
      ? (abs(value) < 1e-4 && value != 0 ? SVGChart.string(format: value) : Decimal.fixed(value, 6)) : "\(value)"
  }

  /// A p-value: four decimals, or two significant digits below 0.0001, or `< 1e-16`.
  static func probability(_ p: Double) -> String {
    if p < 1e-16 { return "< 1e-16" }
    return p < 1e-4 ? SVGChart.string(format: p) : Decimal.fixed(p, 4)
  }
}
