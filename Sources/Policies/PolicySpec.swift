import CacheCore

/// A policy chosen on the command line: `name` or `name:key=value,key=value`.
public struct PolicySpec: Sendable, CustomStringConvertible {
  /// The registered policy.
  public let entry: PolicyEntry
  /// Its validated parameters (defaults filled in).
  public let parameters: Parameters

  /// Parses one `name[:k=v,...]` specification.
  ///
  /// - Throws: `ConfigurationError` for an unknown policy or parameter.
  public init(parsing text: String) throws(ConfigurationError) {
    (entry, parameters) = try PolicyRegistry.registry.parse(text)
  }

  /// The policy's registry name.
  public var name: String { entry.descriptor.name }

  /// `name` or `name:k=v,...` with every parameter spelled out.
  public var description: String {
    parameters.specs.isEmpty ? name : "\(name):\(parameters)"
  }

  /// `name`, plus only the parameters that differ from their defaults (`clock:bits=2`, but
  /// `s3fifo`): how tables, charts and comparisons name the policy. The CSV keeps every one.
  public var label: String {
    let changed = parameters.specs.filter { spec in parameters.string(spec.name) != spec.normalize(spec.defaultValue) }
    guard !changed.isEmpty else { return name }
    return name + ":" + changed.map { "\($0.name)=\(parameters.string($0.name))" }.joined(separator: ",")
  }

  /// The label of the policy a report row names (`policy` and its `params`, `;`-separated),
  /// or `policy` with `params` as written when the registry does not know it.
  public static func label(policy: String, params: String) -> String {
    let written = params.isEmpty ? policy : "\(policy):\(params.replacingOccurrences(";", with: ","))"
    return (try? PolicySpec(parsing: written))?.label ?? written
  }

  /// Splits a `--policies` list. Commas separate policies, but a comma-separated item of
  /// the form `key=value` continues the previous policy's parameters, so
  /// `lru,s3fifo:small=0.1,ghost=0.9,sieve` names three policies.
  public static func parseList(_ text: String) throws(ConfigurationError) -> [PolicySpec] {
    var groups: [String] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let token = String(item).trimmingCharacters(in: " ")
      if token.contains("="), !token.contains(":"), let last = groups.popLast() {
        groups.append(last + (last.contains(":") ? "," : ":") + token)
      } else {
        guard !token.isEmpty else {
          throw ConfigurationError(.invalidValue, "empty policy name in '\(text)'")
        }
        groups.append(token)
      }
    }
    var specs: [PolicySpec] = []
    for group in groups { specs.append(try PolicySpec(parsing: group)) }
    return specs
  }
}

extension String {
  /// The string without leading and trailing occurrences of `character`.
  func trimmingCharacters(in character: Character) -> String {
    var s = Substring(self)
    while s.first == character { s.removeFirst() }
    while s.last == character { s.removeLast() }
    return String(s)
  }
}
