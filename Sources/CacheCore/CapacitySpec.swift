#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A cache size as given on the command line: absolute (`512`, `64KiB`, `1.5GiB`) or a
/// fraction of the trace's working set (`0.1`, `10%`).
///
/// In byte mode absolute sizes are bytes and fractions are of the working-set bytes; in
/// object mode (`--ignore-size`) absolute sizes are object counts (unit suffixes are
/// rejected) and fractions are of the number of distinct objects.
public enum CapacitySpec: Sendable, Equatable, CustomStringConvertible {
  /// A fixed number of bytes (or objects).
  case absolute(Int64)
  /// A fraction in (0, 1] of the working set.
  case fraction(Double)

  /// Parses one size.
  ///
  /// - Throws: `ConfigurationError` for anything that is not a positive size.
  public init(parsing text: String, objectMode: Bool) throws(ConfigurationError) {
    let trimmed = text.filter { $0 != " " }
    if trimmed.hasSuffix("%"), let percent = Double(trimmed.dropLast()), percent > 0, percent <= 100 {
      self = .fraction(percent / 100)
      return
    }
    if let whole = Int64(trimmed) {
      guard whole > 0 else { throw ConfigurationError(.invalidValue, "cache size '\(text)' must be positive") }
      self = .absolute(whole)
      return
    }
    if ByteCount.hasUnit(trimmed) {
      guard !objectMode else {
        throw ConfigurationError(
          .invalidValue,
          "cache size '\(text)' has a byte unit, but --ignore-size counts objects; give a number of objects or a fraction"
        )
      }
      guard let bytes = ByteCount.parse(trimmed), bytes > 0 else {
        throw ConfigurationError(
          .invalidValue, "cache size '\(text)' is not a valid byte count (e.g. 512, 64KiB, 1.5GiB, 0.1)")
      }
      self = .absolute(bytes)
      return
    }
    if let fraction = Double(trimmed), trimmed.contains(".") {
      guard fraction > 0, fraction <= 1 else {
        throw ConfigurationError(
          .invalidValue,
          "cache size '\(text)': a fraction of the working set must be in (0, 1]; use a unit for bytes (e.g. 2GiB)")
      }
      self = .fraction(fraction)
      return
    }
    throw ConfigurationError(
      .invalidValue,
      "cache size '\(text)' is not a size: use bytes (512, 64KiB, 1.5GiB) or a fraction of the working set (0.1, 10%)")
  }

  /// Parses a comma-separated list of sizes; an item `log:MIN:MAX:N` expands to N sizes
  /// spaced evenly on a log scale from MIN to MAX (both fractions or both absolute).
  public static func parseList(_ text: String, objectMode: Bool) throws(ConfigurationError) -> [CapacitySpec] {
    var result: [CapacitySpec] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      if item.lowercased().hasPrefix("log:") {
        result += try logSpaced(String(item), objectMode: objectMode)
        continue
      }
      result.append(try CapacitySpec(parsing: String(item), objectMode: objectMode))
    }
    guard !result.isEmpty else { throw ConfigurationError(.invalidValue, "no cache sizes given") }
    return result
  }

  /// Expands `log:MIN:MAX:N`.
  static func logSpaced(_ text: String, objectMode: Bool) throws(ConfigurationError) -> [CapacitySpec] {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).dropFirst().map(String.init)
    let usage =
      "sizes '\(text)': write log:MIN:MAX:N with MIN < MAX and 2 <= N <= 1000 (e.g. log:1MiB:1GiB:10 or log:0.001:0.5:8)"
    guard parts.count == 3, let count = Int(parts[2]), (2...1000).contains(count) else {
      throw ConfigurationError(.invalidValue, usage)
    }
    let low = try CapacitySpec(parsing: parts[0], objectMode: objectMode)
    let high = try CapacitySpec(parsing: parts[1], objectMode: objectMode)
    func points(_ a: Double, _ b: Double) -> [Double] {
      (0..<count).map { index in a * pow(b / a, Double(index) / Double(count - 1)) }
    }
    switch (low, high) {
    case (.fraction(let a), .fraction(let b)) where a < b:
      var sizes: [CapacitySpec] = []
      for value in points(a, b).map({ ($0 * 1e6).rounded() / 1e6 }) where sizes.last != .fraction(value) {
        sizes.append(.fraction(value))
      }
      return sizes
    case (.absolute(let a), .absolute(let b)) where a < b:
      var sizes: [CapacitySpec] = []
      for value in points(Double(a), Double(b)).map({ Int64($0.rounded()) }) where sizes.last != .absolute(value) {
        sizes.append(.absolute(value))
      }
      return sizes
    default:
      throw ConfigurationError(.invalidValue, usage)
    }
  }

  /// Whether resolving needs the working set (a pre-pass over the trace).
  public var needsWorkingSet: Bool {
    if case .fraction = self { return true }
    return false
  }

  /// The capacity in bytes (or objects) for a trace whose working set is `workingSet`.
  public func resolve(workingSet: Int64?) -> Int64 {
    switch self {
    case .absolute(let value):
      return value
    case .fraction(let fraction):
      guard let workingSet else { preconditionFailure("fraction capacity without a working set") }
      return Int64((Double(workingSet) * fraction).rounded(.down))
    }
  }

  public var description: String {
    switch self {
    case .absolute(let value): return String(value)
    case .fraction(let fraction): return String(fraction)
    }
  }
}
