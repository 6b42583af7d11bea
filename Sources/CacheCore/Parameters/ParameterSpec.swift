/// One `key=value` parameter that a policy or trace format accepts, with its default.
public struct ParameterSpec: Sendable, Equatable {
  /// The kind of value a parameter takes; values are validated when parsed.
  public enum Kind: Sendable, Equatable {
    /// A whole number in the closed range.
    case integer(ClosedRange<Int64>)
    /// A real number in the closed range.
    case real(ClosedRange<Double>)
    /// `true` or `false` (also `1`/`0`, `yes`/`no`).
    case boolean
    /// One of a fixed set of words.
    case choice([String])
    /// Any non-empty text.
    case text
    /// A byte count (`512`, `64KiB`, `1.5GiB`); `0` often means "no limit".
    case byteCount
    /// A byte count above 0: where the modelled library's 0 is not "no limit" (it would keep
    /// nothing), so 0 is refused rather than given a meaning the library does not have.
    case positiveByteCount
    /// A byte count of at least this many bytes: where the modelled server refuses or cannot
    /// work with less (nginx's smallest keys zone that holds a key).
    case byteCountAtLeast(Int64)
    /// A duration of trace time (`300s`, `30m`, `7d`, `500ms`).
    case duration
    /// A duration above 0 (0 would expire everything at once in the modelled library).
    case positiveDuration
    /// A duration, or `never` (read as -1).
    case durationOrNever
  }

  /// The key, lowercase with dashes (`small`, `n-bit-counter`).
  public var name: String
  /// The value used when the key is not given, already valid for `kind`.
  public var defaultValue: String
  /// The accepted values.
  public var kind: Kind
  /// One line of help.
  public var help: String
  /// Other accepted spellings of the key (e.g. a peer simulator's name for it).
  public var aliases: [String]

  public init(
    _ name: String, default defaultValue: String, _ kind: Kind, help: String,
    aliases: [String] = []
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.kind = kind
    self.help = help
    self.aliases = aliases
  }

  /// A short description of the accepted values, for help and error messages.
  public var valueDescription: String {
    switch kind {
    case .integer(let range): return "an integer in \(range.lowerBound)...\(range.upperBound)"
    case .real(let range): return "a number in \(range.lowerBound)...\(range.upperBound)"
    case .boolean: return "true or false"
    case .choice(let words): return "one of " + words.joined(separator: ", ")
    case .text: return "text"
    case .byteCount: return "a byte count such as 64MiB"
    case .positiveByteCount: return "a byte count above 0 such as 64MiB"
    case .byteCountAtLeast(let minimum): return "a byte count of at least \(ByteCount.exact(minimum)) such as 1MiB"
    case .duration: return "a duration such as 300s, 30m or 7d (at most \(Duration.maximumDescription))"
    case .positiveDuration:
      return "a duration above 0 such as 300s, 30m or 7d (at most \(Duration.maximumDescription))"
    case .durationOrNever:
      return "a duration such as 300s, 30m or 7d (at most \(Duration.maximumDescription)), or never"
    }
  }

  /// Returns `value` in canonical form, or nil if it is not acceptable.
  public func normalize(_ value: String) -> String? {
    switch kind {
    case .integer(let range):
      guard let number = Int64(value), range.contains(number) else { return nil }
      return String(number)
    case .real(let range):
      guard let number = Double(value), number.isFinite, range.contains(number) else { return nil }
      return value
    case .boolean:
      switch value.lowercased() {
      case "true", "1", "yes": return "true"
      case "false", "0", "no": return "false"
      default: return nil
      }
    case .choice(let words):
      let lowered = value.lowercased()
      return words.contains(lowered) ? lowered : nil
    case .text:
      return value.isEmpty ? nil : value
    case .byteCount:
      return ByteCount.parse(value).map(ByteCount.exact)
    case .positiveByteCount:
      return ByteCount.parse(value).flatMap { $0 > 0 ? ByteCount.exact($0) : nil }
    case .byteCountAtLeast(let minimum):
      return ByteCount.parse(value).flatMap { $0 >= minimum ? ByteCount.exact($0) : nil }
    case .duration:
      return Duration.microseconds(value).map(Duration.format)
    case .positiveDuration:
      return Duration.microseconds(value).flatMap { $0 > 0 ? Duration.format($0) : nil }
    case .durationOrNever:
      return value.lowercased() == "never" ? "never" : Duration.microseconds(value).map(Duration.format)
    }
  }
}

/// Parsing of trace-time durations: `500ms`, `300s`, `30m`, `2h`, `7d` (and plain seconds).
public enum Duration {
  /// The longest duration accepted, 2^61 µs (about 73,000 years): a trace time (below 2^62 µs)
  /// plus a duration never overflows.
  public static let maximum: Int64 = 1 << 61
  public static let maximumDescription = "2^61 µs (about 73,000 years)"

  /// The duration in microseconds, or nil (also above ``maximum``).
  public static func microseconds(_ text: String) -> Int64? {
    let lowered = text.lowercased().filter { $0 != " " }
    let units: [(String, Double)] = [("ms", 1e3), ("us", 1), ("s", 1e6), ("m", 60e6), ("h", 3600e6), ("d", 86400e6)]
    for (suffix, scale) in units where lowered.hasSuffix(suffix) {
      let number = lowered.dropLast(suffix.count)
      guard let value = Double(number), value >= 0, value.isFinite, !number.isEmpty else { return nil }
      return bounded(value * scale)
    }
    if let seconds = Double(lowered), seconds >= 0, seconds.isFinite { return bounded(seconds * 1e6) }
    return nil
  }

  private static func bounded(_ micros: Double) -> Int64? {
    micros <= Double(maximum) ? Int64(micros) : nil
  }

  /// `micros` in the largest whole unit: `7d`, `2h`, `30m`, `300s`, `500ms` or `12us`.
  public static func format(_ micros: Int64) -> String {
    for (suffix, scale) in [
      ("d", 86_400_000_000), ("h", 3_600_000_000), ("m", 60_000_000), ("s", 1_000_000), ("ms", 1000),
    ]
      as [(String, Int64)] where micros != 0 && micros % scale == 0
    {
      return "\(micros / scale)\(suffix)"
    }
    return "\(micros)us"
  }
}
