/// Parsing and printing of byte counts such as `512`, `64KiB`, `1.5GiB` or `10MB`.
public enum ByteCount {
  /// Binary (`KiB`, `MiB`, `GiB`, `TiB`, also `K`, `M`, `G`, `T`) and decimal
  /// (`KB`, `MB`, `GB`, `TB`) multipliers, matched case-insensitively; `B` is 1.
  static let suffixes: [(String, Double)] = [
    ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("tib", 1_099_511_627_776),
    ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12),
    ("k", 1024), ("m", 1_048_576), ("g", 1_073_741_824), ("t", 1_099_511_627_776),
    ("b", 1),
  ]

  /// Returns the number of bytes `text` denotes, or nil if it is not a byte count.
  ///
  /// A plain integer is a count of bytes; a number with a unit suffix may have a fraction
  /// (`1.5GiB`); the result is rounded down to whole bytes and must fit in `Int64`.
  public static func parse(_ text: String) -> Int64? {
    let trimmed = text.filter { $0 != " " && $0 != "_" }
    guard !trimmed.isEmpty else { return nil }
    if let plain = Int64(trimmed) { return plain >= 0 ? plain : nil }
    let lowered = trimmed.lowercased()
    for (suffix, multiplier) in suffixes where lowered.hasSuffix(suffix) {
      let number = String(lowered.dropLast(suffix.count))
      guard let value = Double(number), value.isFinite, value >= 0,
        number.allSatisfy({ $0.isNumber || $0 == "." }),
        multiplier > 1 || value == value.rounded()  // a fraction of a byte (1.5B) is no byte count
      else { return nil }
      let bytes = (value * multiplier).rounded(.down)
      return bytes < 9.2e18 ? Int64(bytes) : nil
    }
    return nil
  }

  /// Whether `text` ends in a byte unit suffix (`KiB`, `MB`, `B`, ...).
  public static func hasUnit(_ text: String) -> Bool {
    let lowered = text.lowercased().filter { $0 != " " }
    return suffixes.contains { lowered.hasSuffix($0.0) } && Int64(lowered) == nil
  }

  /// `bytes` with the largest binary unit that keeps the value ≥ 1 (`1.5 GiB`, `512 B`).
  public static func format(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    var value = Double(bytes)
    var unit = 0
    while abs(value) >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    if unit == 0 { return "\(bytes) B" }
    // Whole amounts as integers (`128 MiB`), everything else with exactly two decimals
    // (`721.30 MiB`, never `721.3 MiB`).
    let hundredths = Int64((value * 100).rounded())
    guard hundredths % 100 != 0 else { return "\(hundredths / 100) \(units[unit])" }
    let fraction = abs(hundredths % 100)
    let sign = hundredths < 0 ? "-" : ""
    return "\(sign)\(abs(hundredths / 100)).\(fraction < 10 ? "0" : "")\(fraction) \(units[unit])"
  }

  /// `bytes` as a specification that parses back to exactly the same count: the largest
  /// binary unit that divides it (`512MiB`, `4KiB`), else plain bytes (`100000000`).
  public static func exact(_ bytes: Int64) -> String {
    guard bytes != 0 else { return "0" }
    for (unit, scale) in [("TiB", Int64(1) << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
    where bytes % scale == 0 {
      return "\(bytes / scale)\(unit)"
    }
    return String(bytes)
  }
}
