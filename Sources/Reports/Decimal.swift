/// Locale-independent fixed-point formatting of doubles for reports.
public enum Decimal {
  /// `value` rounded to `places` decimals (`0.123457`), or `nan`/`inf`.
  public static func fixed(_ value: Double, _ places: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let units = Int64(scaled)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard places > 0 else { return sign + String(units) }
    let divisor = Int64(scale)
    var fraction = String(units % divisor)
    while fraction.count < places { fraction = "0" + fraction }
    return "\(sign)\(units / divisor).\(fraction)"
  }
}
