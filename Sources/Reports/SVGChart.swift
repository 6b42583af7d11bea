#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A self-contained SVG line chart (axes, ticks, grid, legend), for report pages. Pure text
/// generation, O(points).
public struct SVGChart: Sendable {
  /// One line of the chart.
  public struct Series: Sendable {
    /// How a series is drawn.
    public enum Style: Sendable, Equatable {
      /// A solid line (with dots when there are few points and no steps).
      case line
      /// Dots only.
      case points
      /// A line with this SVG `stroke-dasharray` (`6 3`), so equal curves stay told apart.
      case dashed(String)
    }

    public var name: String
    public var points: [(x: Double, y: Double)]
    public var style: Style
    /// Palette position of its colour (nil: the series' own position), so a fitted line can
    /// share its points' colour.
    public var color: Int?

    public init(name: String, points: [(x: Double, y: Double)], style: Style = .line, color: Int? = nil) {
      self.name = name
      self.points = points
      self.style = style
      self.color = color
    }
  }

  public var title: String
  public var xLabel: String
  public var yLabel: String
  public var series: [Series]
  /// Logarithmic x axis (base 10); x values must be positive.
  public var logX = false
  /// Logarithmic y axis (base 10); y values must be positive.
  public var logY = false
  /// On a logarithmic x axis, put ticks at powers of two (byte sizes) instead of ten.
  public var binaryTicks = false
  /// Draw each series as steps (for CDFs).
  public var steps = false
  /// Fixed y range (nil: from the data, padded).
  public var yRange: ClosedRange<Double>?
  /// Formats an x tick value.
  public var formatX: @Sendable (Double) -> String = { SVGChart.compact($0) }
  public var formatY: @Sendable (Double) -> String = { SVGChart.compact($0) }

  public init(title: String, xLabel: String, yLabel: String, series: [Series]) {
    self.title = title
    self.xLabel = xLabel
    self.yLabel = yLabel
    self.series = series
  }

  static let palette = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
  ]

  /// The SVG document.
  public func render(width: Double = 760, height: Double = 440) -> String {
    let legendWidth = 210.0
    let left = 70.0
    let right = width - legendWidth
    let top = 40.0
    let bottom = height - 55
    let drawable = { (point: (x: Double, y: Double)) in
      point.x.isFinite && point.y.isFinite && (!logX || point.x > 0) && (!logY || point.y > 0)
    }
    let all = series.flatMap(\.points).filter(drawable)
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(width))" height="\(Self.n(height))" \
      viewBox="0 0 \(Self.n(width)) \(Self.n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(Self.n(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">\(Self.escape(title))</text>

      """
    guard !all.isEmpty else {
      svg +=
        "<text x=\"\(Self.n(width / 2))\" y=\"\(Self.n(height / 2))\" text-anchor=\"middle\">no data</text>\n</svg>\n"
      return svg
    }
    let transform: (Double) -> Double = logX ? { log10($0) } : { $0 }
    var xMin = all.map { transform($0.x) }.min()!
    var xMax = all.map { transform($0.x) }.max()!
    if xMin == xMax {
      xMin -= 0.5
      xMax += 0.5
    }
    let yTransform: (Double) -> Double = logY ? { log10($0) } : { $0 }
    var yMin = yTransform(yRange?.lowerBound ?? all.map(\.y).min()!)
    var yMax = yTransform(yRange?.upperBound ?? all.map(\.y).max()!)
    if yRange == nil, logY {
      yMin -= 0.05 * max(yMax - yMin, 0.2)
      yMax += 0.05 * max(yMax - yMin, 0.2)
    } else if yRange == nil {
      let pad = (yMax - yMin) * 0.05
      yMin = yMin >= 0 && yMin - pad < 0 ? 0 : yMin - pad
      yMax += pad
    }
    if yMin == yMax {
      yMin -= 0.5
      yMax += 0.5
    }
    let px = { (x: Double) in left + (transform(x) - xMin) / (xMax - xMin) * (right - left) }
    let py = { (y: Double) in bottom - (yTransform(y) - yMin) / (yMax - yMin) * (bottom - top) }

    // Grid and ticks.
    for tick in logY ? Self.logTicks(yMin, yMax).map({ pow(10, $0) }) : Self.ticks(yMin, yMax) {
      let y = py(tick)
      svg +=
        "<line x1=\"\(Self.n(left))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(right))\" y2=\"\(Self.n(y))\" stroke=\"#e5e5e5\"/>\n"
      svg +=
        "<text x=\"\(Self.n(left - 6))\" y=\"\(Self.n(y + 4))\" text-anchor=\"end\">\(Self.escape(formatY(tick)))</text>\n"
    }
    let xTicks =
      logX ? (binaryTicks ? Self.binaryLogTicks(xMin, xMax) : Self.logTicks(xMin, xMax)) : Self.ticks(xMin, xMax)
    for tick in xTicks {
      let x = left + (tick - xMin) / (xMax - xMin) * (right - left)
      let value = logX ? pow(10, tick) : tick
      svg +=
        "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(top))\" x2=\"\(Self.n(x))\" y2=\"\(Self.n(bottom))\" stroke=\"#e5e5e5\"/>\n"
      svg +=
        "<text x=\"\(Self.n(x))\" y=\"\(Self.n(bottom + 16))\" text-anchor=\"middle\">\(Self.escape(formatX(value)))</text>\n"
    }
    svg +=
      "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(top))\" width=\"\(Self.n(right - left))\" height=\"\(Self.n(bottom - top))\" fill=\"none\" stroke=\"#333\"/>\n"
    svg +=
      "<text x=\"\(Self.n((left + right) / 2))\" y=\"\(Self.n(height - 14))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
    svg +=
      "<text x=\"16\" y=\"\(Self.n((top + bottom) / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(Self.n((top + bottom) / 2)))\">\(Self.escape(yLabel))</text>\n"

    // Lines and legend.
    for (index, line) in series.enumerated() {
      let color = Self.palette[(line.color ?? index) % Self.palette.count]
      let points = line.points.filter(drawable)
      var dash = ""
      if case .dashed(let pattern) = line.style { dash = " stroke-dasharray=\"\(Self.escape(pattern))\"" }
      var coordinates: [String] = []
      for (offset, point) in points.enumerated() where line.style != .points {
        if steps, offset > 0 { coordinates.append("\(Self.n(px(point.x))),\(Self.n(py(points[offset - 1].y)))") }
        coordinates.append("\(Self.n(px(point.x))),\(Self.n(py(point.y)))")
      }
      if coordinates.count > 1 {
        svg +=
          "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash) points=\"\(coordinates.joined(separator: " "))\"/>\n"
      }
      if line.style == .points || (line.style == .line && !steps && points.count <= 60) {
        let opacity = line.style == .points ? " fill-opacity=\"0.55\"" : ""
        for point in points {
          svg +=
            "<circle cx=\"\(Self.n(px(point.x)))\" cy=\"\(Self.n(py(point.y)))\" r=\"3\" fill=\"\(color)\"\(opacity)/>\n"
        }
      }
      let legendY = top + 8 + Double(index) * 18
      if line.style == .points {
        svg += "<circle cx=\"\(Self.n(right + 24))\" cy=\"\(Self.n(legendY))\" r=\"4\" fill=\"\(color)\"/>\n"
      } else {
        svg +=
          "<line x1=\"\(Self.n(right + 14))\" y1=\"\(Self.n(legendY))\" x2=\"\(Self.n(right + 34))\" y2=\"\(Self.n(legendY))\" stroke=\"\(color)\" stroke-width=\"3\"\(dash)/>\n"
      }
      svg +=
        "<text x=\"\(Self.n(right + 40))\" y=\"\(Self.n(legendY + 4))\">\(Self.escape(Self.shorten(line.name, 26)))</text>\n"
    }
    svg += "</svg>\n"
    return svg
  }

  /// About five round tick values covering `low...high`.
  public static func ticks(_ low: Double, _ high: Double) -> [Double] {
    let span = high - low
    let rough = span / 5
    let exponent = floor(log10(rough))
    let magnitude = pow(10, exponent)
    let mantissa = [1.0, 2, 2.5, 5, 10].first { $0 * magnitude >= rough } ?? 10
    let step = mantissa * magnitude
    // k × mantissa ÷ 10^−e is exact for round values where k × step may not be (0.6, not 0.6000000000000001).
    let value = { (k: Double) in exponent < 0 ? k * mantissa / pow(10, -exponent) : k * mantissa * magnitude }
    var result: [Double] = []
    var k = ceil(low / step)
    while value(k) <= high + step * 1e-9 {
      result.append(value(k) == 0 ? 0 : value(k))
      k += 1
    }
    return result
  }

  /// Whole powers of ten (and, over a short range, 2× and 5×) within `low...high` (log10 units).
  static func logTicks(_ low: Double, _ high: Double) -> [Double] {
    var result: [Double] = []
    let multipliers: [Double] = high - low < 2.5 ? [1, 2, 5] : [1]
    for exponent in Int(floor(low))...Int(ceil(high)) {
      for multiplier in multipliers {
        let value = Double(exponent) + log10(multiplier)
        if value >= low - 1e-9 && value <= high + 1e-9 { result.append(value) }
      }
    }
    return result.isEmpty ? [low, high] : result
  }

  /// Powers of two within `low...high` (log10 units), about six of them.
  static func binaryLogTicks(_ low: Double, _ high: Double) -> [Double] {
    let first = Int(ceil(low / log10(2.0) - 1e-9))
    let last = Int(floor(high / log10(2.0) + 1e-9))
    guard first <= last else { return [low, high] }
    let step = max(1, Int(ceil(Double(last - first) / 6)))
    return stride(from: first, through: last, by: step).map { Double($0) * log10(2.0) }
  }

  /// A short number: 0.25, 12, 3.5k, 1.2M, 4G (powers of 1000) or 1e-05.
  public static func compact(_ value: Double) -> String {
    let magnitude = abs(value)
    if magnitude == 0 { return "0" }
    for (scale, suffix) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] where magnitude >= scale {
      return trim(Decimal.fixed(value / scale, 2)) + suffix
    }
    if magnitude >= 0.001 { return trim(Decimal.fixed(value, 4)) }
    return string(format: value)
  }

  /// Byte sizes with binary units (KiB, MiB, GiB).
  public static func bytes(_ value: Double) -> String {
    for (scale, suffix) in [(1099511627776.0, "TiB"), (1_073_741_824, "GiB"), (1_048_576, "MiB"), (1024, "KiB")]
    where abs(value) >= scale {
      return trim(Decimal.fixed(value / scale, 2)) + " " + suffix
    }
    return trim(Decimal.fixed(value, 0)) + " B"
  }

  static func trim(_ text: String) -> String {
    guard text.contains(".") else { return text }
    var result = text
    while result.last == "0" { result.removeLast() }
    if result.last == "." { result.removeLast() }
    return result
  }

  static func string(format value: Double) -> String {
    let exponent = Int(floor(log10(abs(value))))
    return trim(Decimal.fixed(value / pow(10, Double(exponent)), 2)) + "e" + String(exponent)
  }

  static func shorten(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  /// Two decimals, enough for pixel coordinates.
  static func n(_ value: Double) -> String { trim(Decimal.fixed(value, 2)) }

  /// XML-escapes text.
  public static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
