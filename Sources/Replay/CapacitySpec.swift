import CacheCore

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
  /// - Throws: ``ConfigurationError`` for anything that is not a positive size.
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

  /// Parses a comma-separated list of sizes.
  public static func parseList(_ text: String, objectMode: Bool) throws(ConfigurationError) -> [CapacitySpec] {
    var result: [CapacitySpec] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      result.append(try CapacitySpec(parsing: String(item), objectMode: objectMode))
    }
    guard !result.isEmpty else { throw ConfigurationError(.invalidValue, "no cache sizes given") }
    return result
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
