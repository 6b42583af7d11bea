#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parsing and printing of transfer rates such as `500MB/s`, `1.2GB/s`, `25Mbit/s` or
/// `10240Kibit/s`, as bytes per second.
public enum Bandwidth {
  /// Prefixes of bit rates (`kbit/s`, `Mbit/s`, `Kibit/s`, also `Mbps`), matched
  /// case-insensitively: decimal, or binary with an `i`.
  static let bitPrefixes: [(String, Double)] = [
    ("ki", 1024), ("mi", 1_048_576), ("gi", 1_073_741_824),
    ("k", 1e3), ("m", 1e6), ("g", 1e9), ("", 1),
  ]

  /// Bytes per second that `text` denotes, or nil: a byte count per second (`500MB/s`,
  /// `64KiB/s`, `50000B/s`; a capital `B` says bytes, so `25M/s` and `25Mb/s` are refused) or a bit rate
  /// (`25Mbit/s`, `25Mbps`). Must be positive and finite. O(length).
  public static func bytesPerSecond(_ text: String) -> Double? {
    let trimmed = text.filter { $0 != " " && $0 != "_" }
    let lowered = trimmed.lowercased()
    for bitUnit in ["bit/s", "bps"] where lowered.hasSuffix(bitUnit) {
      let head = lowered.dropLast(bitUnit.count)
      for (prefix, scale) in bitPrefixes where head.hasSuffix(prefix) {
        let number = head.dropLast(prefix.count)
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number) else {
          continue
        }
        return positive(value * scale / 8)
      }
      return nil
    }
    guard trimmed.hasSuffix("/s") else { return nil }
    let count = String(trimmed.dropLast(2))
    // A capital `B` must be said: `25M/s` would read as MiB/s and `25Mb/s` as megabytes.
    guard count.last == "B" else { return nil }
    let lowerCount = count.lowercased()
    for (suffix, multiplier) in ByteCount.suffixes where lowerCount.hasSuffix(suffix) {
      let number = lowerCount.dropLast(suffix.count)
      guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number) else {
        return nil
      }
      return positive(value * multiplier)
    }
    return nil
  }

  /// `value` if positive and finite; within a millionth of a byte per second of a whole
  /// number it is that number (`130.7MB/s` is 130,700,000 B/s, not 130,699,999.99999999).
  private static func positive(_ value: Double) -> Double? {
    guard value > 0, value.isFinite else { return nil }
    return abs(value - value.rounded()) < 1e-6 ? value.rounded() : value
  }

  /// `bytesPerSecond` to `digits` significant digits (for fitted rates: 169.8 MB/s, not
  /// 169.801703 MB/s).
  public static func rounded(_ bytesPerSecond: Double, digits: Int = 4) -> Double {
    guard bytesPerSecond > 0, bytesPerSecond.isFinite else { return bytesPerSecond }
    let exponent = ceil(log10(bytesPerSecond)) - Double(digits)
    // Whole powers of ten multiply exactly; their reciprocals would not (98.79999999999998).
    return exponent >= 0
      ? (bytesPerSecond / pow(10, exponent)).rounded() * pow(10, exponent)
      : (bytesPerSecond * pow(10, -exponent)).rounded() / pow(10, -exponent)
  }

  /// `bytesPerSecond` in the largest decimal byte unit that keeps the value ≥ 1 (`500MB/s`,
  /// `1.2GB/s`, `3.125MB/s`), spelled so that ``bytesPerSecond(_:)`` reads back exactly the
  /// same value.
  public static func format(_ bytesPerSecond: Double) -> String {
    for (unit, scale) in [("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)] where bytesPerSecond >= scale {
      let value = bytesPerSecond / scale
      let text = (value == value.rounded() && value < 1e15 ? String(Int64(value)) : String(value)) + unit
      if Self.bytesPerSecond(text) == bytesPerSecond { return text }
    }
    let whole = bytesPerSecond == bytesPerSecond.rounded() && bytesPerSecond < 1e15
    return (whole ? String(Int64(bytesPerSecond)) : String(bytesPerSecond)) + "B/s"
  }
}
