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
    }
  }
}
