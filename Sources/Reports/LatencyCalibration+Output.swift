import CacheCore
import Engine

/// What `cachelab calibrate` shows and writes: the table, the profile file and the chart.
extension LatencyCalibration {
  /// One aligned row per operation: points, fixed µs with its interval, bandwidth with its
  /// interval, R², spread (p90 over median of times over their size's median), and any note.
  public func table() -> String {
    var rows = [["operation", "points", "fixed µs [95 %]", "bandwidth [95 %]", "R²", "spread", "note"]]
    for fit in fits {
      let fixed =
        Decimal.fixed(fit.fixed, 1)
        + (fit.fixedInterval.map { " [\(Decimal.fixed($0.lowerBound, 1))…\(Decimal.fixed($0.upperBound, 1))]" } ?? "")
      let rate = { (value: Double) in
        fit.operation == .scan
          ? "\(Decimal.fixed(Bandwidth.rounded(value, digits: 3), 0)) objects/s"
          : Bandwidth.format(Bandwidth.rounded(value, digits: 3))
      }
      let bandwidth =
        fit.perSecond.map { value in
          rate(value) + (fit.perSecondInterval.map { " [\(rate($0.lowerBound))…\(rate($0.upperBound))]" } ?? "")
        } ?? "none measurable"
      rows.append([
        fit.operation.rawValue, String(fit.points), fixed, bandwidth, fit.rSquared.map { Decimal.fixed($0, 3) } ?? "",
        fit.spread.map { Decimal.fixed($0, 2) } ?? "", fit.note ?? "",
      ])
    }
    return TableReport.align(rows)
  }

  /// A latency profile (TOML) of the fitted disk costs, `cachelab run --latency-profile` reads
  /// it; each fit's figures follow as a `[calibration.OPERATION]` note table.
  public func profile(name: String, source: String) -> String {
    var text = "# Written by cachelab calibrate. The keys are --latency keys; tables are notes.\n"
    text += "name = \(Self.quoted(name))\nsource = \(Self.quoted(source))\n"
    let fits = self.fits
    for (key, value) in spec.settings {
      guard case .cost(let cost) = value else { continue }
      text += "\(key.rawValue) = \(Self.quoted(cost.description))\n"
    }
    for fit in fits {
      text += "\n[calibration.\(fit.operation.rawValue)]\nmeasured = \(Self.quoted(fit.operation.meaning))\n"
      text += "points = \(fit.points)\nfixed_us = \(Decimal.fixed(fit.fixed, 3))\n"
      if let interval = fit.fixedInterval {
        text += "fixed_us_ci95 = [\(Decimal.fixed(interval.lowerBound, 3)), \(Decimal.fixed(interval.upperBound, 3))]\n"
      }
      if let rate = fit.perSecond { text += "per_second = \(Decimal.fixed(rate, 0))\n" }
      if let interval = fit.perSecondInterval {
        text +=
          "per_second_ci95 = [\(Decimal.fixed(interval.lowerBound, 0)), \(Decimal.fixed(interval.upperBound, 0))]\n"
      }
      if let r = fit.rSquared { text += "r_squared = \(Decimal.fixed(r, 6))\n" }
      if let spread = fit.spread { text += "spread_p90_over_median = \(Decimal.fixed(spread, 2))\n" }
      let medians = Self.medians(points.filter { $0.operation == fit.operation })
      text += "sizes = [\(medians.map { String($0.size) }.joined(separator: ", "))]\n"
      text += "median_us = [\(medians.map { Decimal.fixed($0.micros, 1) }.joined(separator: ", "))]\n"
    }
    return text
  }

  static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"") + "\""
  }

  /// Every measured point and each byte-sized operation's fitted line (dashed, the points'
  /// colour), on log–log axes.
  public func chart(title: String) -> String {
    var series: [SVGChart.Series] = []
    for (index, fit) in fits.enumerated() where fit.operation != .scan {
      let measured = points.filter { $0.operation == fit.operation }
      series.append(
        SVGChart.Series(
          name: "\(fit.operation.rawValue) measured",
          points: measured.map { (Double($0.size), Double(max($0.micros, 1))) },
          style: .points, color: index))
      let sizes = Set(measured.map(\.size)).sorted()
      series.append(
        SVGChart.Series(
          name: "\(fit.operation.rawValue) fit", points: sizes.map { (Double($0), max(fit.predict($0), 1)) },
          style: .dashed("6 3"), color: index))
    }
    var chart = SVGChart(title: title, xLabel: "object size", yLabel: "µs", series: series)
    chart.logX = true
    chart.logY = true
    chart.binaryTicks = true
    chart.formatX = { SVGChart.bytes($0) }
    return chart.render(width: 860, height: 520)
  }
}
