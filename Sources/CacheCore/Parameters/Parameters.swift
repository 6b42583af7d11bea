/// Validated `key=value` settings for one policy or trace format, with every key that the
/// owner declares present (defaults filled in).
///
/// Parsed once at start-up; the typed accessors cannot fail afterwards.
public struct Parameters: Sendable, Equatable, CustomStringConvertible {
  /// The declared parameters, in declaration order.
  public let specs: [ParameterSpec]
  @usableFromInline let values: [String: String]
  /// The keys the user set explicitly.
  public let explicitKeys: Set<String>

  /// Parses `text` (`"k=v,k=v"`, possibly empty) against `specs`.
  ///
  /// - Parameters:
  ///   - text: the parameters as written.
  ///   - specs: the parameters the owner accepts, with defaults and ranges.
  ///   - owner: the policy or format name, used in error messages.
  /// - Throws: ``ConfigurationError`` for an unknown key (listing the known ones), a
  ///   duplicate key, a missing `=` or a value of the wrong kind.
  public init(parsing text: Substring, specs: [ParameterSpec], owner: String) throws(ConfigurationError) {
    var values: [String: String] = [:]
    var explicit: Set<String> = []
    for spec in specs { values[spec.name] = spec.defaultValue }
    for item in try Self.items(text, owner: owner) {
      let pair = item.trimmingSpaces()
      guard !pair.isEmpty else { continue }
      guard let equals = pair.firstIndex(of: "=") else {
        throw ConfigurationError(
          .invalidValue, "\(owner): parameter '\(pair)' must be written key=value")
      }
      let key = pair[..<equals].trimmingSpaces().lowercased()
      var value = String(pair[pair.index(after: equals)...].trimmingSpaces())
      if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
        value = String(value.dropFirst().dropLast()).replacing("''", with: "'")
      }
      guard let spec = specs.first(where: { $0.name == key || $0.aliases.contains(key) }) else {
        let known = specs.isEmpty ? "it takes no parameters" : "known: " + specs.map(\.name).joined(separator: ", ")
        throw ConfigurationError(.unknownParameter, "\(owner) has no parameter '\(key)' (\(known))")
      }
      guard !explicit.contains(spec.name) else {
        throw ConfigurationError(.invalidValue, "\(owner): parameter '\(spec.name)' given twice")
      }
      guard let normal = spec.normalize(value) else {
        throw ConfigurationError(
          .invalidValue, "\(owner): \(spec.name)=\(value) is invalid; expected \(spec.valueDescription)")
      }
      values[spec.name] = normal
      explicit.insert(spec.name)
    }
    self.specs = specs
    self.values = values
    self.explicitKeys = explicit
  }

  /// The `key=value` items of `text`: split at commas outside single quotes (a quoted value
  /// such as `log-format='$host "$request"'` may hold commas; `''` in it is one quote).
  static func items(_ text: Substring, owner: String) throws(ConfigurationError) -> [Substring] {
    var items: [Substring] = []
    var start = text.startIndex
    var quoted = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "'" {
        quoted.toggle()
      } else if character == ",", !quoted {
        items.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    guard !quoted else {
      throw ConfigurationError(.invalidValue, "\(owner): a quoted parameter value is missing its closing '")
    }
    items.append(text[start...])
    return items
  }

  /// Parses `text` against `specs` (see ``init(parsing:specs:owner:)-(Substring,_,_)``).
  public init(parsing text: String = "", specs: [ParameterSpec], owner: String) throws(ConfigurationError) {
    try self.init(parsing: Substring(text), specs: specs, owner: owner)
  }

  /// The raw (canonical) value of `name`, which must be declared.
  public func string(_ name: String) -> String {
    guard let value = values[name] else { preconditionFailure("undeclared parameter \(name)") }
    return value
  }

  /// The integer value of `name`, declared as `.integer`.
  public func integer(_ name: String) -> Int64 {
    guard let value = Int64(string(name)) else { preconditionFailure("\(name) is not an integer") }
    return value
  }

  /// The real value of `name`, declared as `.real`.
  public func real(_ name: String) -> Double {
    guard let value = Double(string(name)) else { preconditionFailure("\(name) is not a number") }
    return value
  }

  /// The byte count of `name`, declared as `.byteCount`.
  public func bytes(_ name: String) -> Int64 {
    guard let value = ByteCount.parse(string(name)) else { preconditionFailure("\(name) is not a byte count") }
    return value
  }

  /// The duration of `name` in microseconds, declared as `.duration`.
  public func duration(_ name: String) -> Int64 {
    if string(name) == "never" { return -1 }
    guard let value = Duration.microseconds(string(name)) else { preconditionFailure("\(name) is not a duration") }
    return value
  }

  /// The boolean value of `name`, declared as `.boolean`.
  public func boolean(_ name: String) -> Bool { string(name) == "true" }

  /// Whether the user set `name` explicitly.
  public func isExplicit(_ name: String) -> Bool { explicitKeys.contains(name) }

  /// Every parameter as `k=v,k=v` in declaration order: enough to reproduce the run.
  public var description: String {
    specs.map { "\($0.name)=\(Self.quotedIfNeeded(values[$0.name] ?? ""))" }.joined(separator: ",")
  }

  /// `value`, in single quotes (inner quotes doubled) when it holds a comma, a quote or
  /// surrounding spaces, so that the `k=v,...` text parses back to it.
  static func quotedIfNeeded(_ value: String) -> String {
    guard value.contains(",") || value.contains("'") || value.first == " " || value.last == " " else { return value }
    return "'" + value.replacing("'", with: "''") + "'"
  }

  /// Only the parameters whose value differs from their default, as `k=v,k=v` (empty when
  /// all are defaults): how labels name a configuration.
  public var changed: String {
    specs.filter { string($0.name) != $0.normalize($0.defaultValue) }.map {
      "\($0.name)=\(Self.quotedIfNeeded(string($0.name)))"
    }
    .joined(separator: ",")
  }
}

extension Substring {
  /// The substring without leading and trailing spaces and tabs.
  public func trimmingSpaces() -> Substring {
    var s = self
    while let first = s.first, first == " " || first == "\t" { s.removeFirst() }
    while let last = s.last, last == " " || last == "\t" { s.removeLast() }
    return s
  }
}
