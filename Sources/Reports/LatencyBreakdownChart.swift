import Engine
import Replay

/// Where each engine's request time goes: one horizontal bar per engine of the first run,
/// split into the microseconds of requests that memory, the disk, a revalidation and the
/// origin answered (shares of its total, with the mean per request). Pure text, O(engines).
public struct LatencyBreakdownChart: Sendable {
  /// One engine's bar.
  public struct Bar: Sendable {
    public var label: String
    /// Microseconds per ``TierLatencies/Answer``, in its order.
    public var totals: [Int64]
    public var requests: Int64
  }

  public var title: String
  public var bars: [Bar]

  static let colors = ["#2ca02c", "#1f77b4", "#ff7f0e", "#d62728"]

  /// The chart of the first run's engines; nil without engines.
  public init?(_ runs: [RunResult]) {
    guard let run = runs.first else { return nil }
    bars = run.engines.compactMap { engine in
      engine.stats.tiers.map { Bar(label: engine.label, totals: $0.totals, requests: engine.stats.requests) }
    }
    guard !bars.isEmpty else { return nil }
    title = "Where request time goes — " + ReportDirectory.fileName(run.configuration.tracePath)
  }

  /// The SVG document.
  public func render(width: Double = 760) -> String {
    let left = 170.0
    let right = width - 30
    let top = 60.0
    let barHeight = 22.0
    let gap = 12.0
    let height = top + Double(bars.count) * (barHeight + gap) + 70
    let n = SVGChart.n
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(n(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">\(SVGChart.escape(title))</text>

      """
    for (index, answer) in TierLatencies.Answer.allCases.enumerated() {
      let x = left + Double(index) * 120
      svg += "<rect x=\"\(n(x))\" y=\"34\" width=\"12\" height=\"12\" fill=\"\(Self.colors[index])\"/>\n"
      svg += "<text x=\"\(n(x + 16))\" y=\"44\">\(answer.name)</text>\n"
    }
    for (row, bar) in bars.enumerated() {
      let y = top + Double(row) * (barHeight + gap)
      let total = bar.totals.reduce(0, +)
      svg +=
        "<text x=\"\(n(left - 8))\" y=\"\(n(y + barHeight / 2 + 4))\" text-anchor=\"end\">\(SVGChart.escape(SVGChart.shorten(bar.label, 24)))</text>\n"
      var x = left
      for (index, part) in bar.totals.enumerated() where total > 0 && part > 0 {
        let share = Double(part) / Double(total)
        let w = share * (right - left)
        svg +=
          "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(barHeight))\" fill=\"\(Self.colors[index])\"><title>\(TierLatencies.Answer.allCases[index].name): \(Decimal.fixed(share * 100, 1)) %</title></rect>\n"
        if w > 38 {
          svg +=
            "<text x=\"\(n(x + w / 2))\" y=\"\(n(y + barHeight / 2 + 4))\" text-anchor=\"middle\" fill=\"white\">\(Decimal.fixed(share * 100, 0)) %</text>\n"
        }
        x += w
      }
      if total == 0 {
        svg += "<text x=\"\(n(left + 4))\" y=\"\(n(y + barHeight / 2 + 4))\">no latency recorded</text>\n"
      }
    }
    let mean = { (bar: Bar) in bar.requests > 0 ? Double(bar.totals.reduce(0, +)) / Double(bar.requests) : 0 }
    let means = bars.map { "\($0.label) \(Decimal.fixed(mean($0) / 1000, 2)) ms" }.joined(separator: ", ")
    svg +=
      "<text x=\"\(n(left))\" y=\"\(n(height - 30))\">share of all request time; mean per request: \(SVGChart.escape(SVGChart.shorten(means, 90)))</text>\n"
    svg += "</svg>\n"
    return svg
  }
}
