import CacheCore

/// A registered expiry rule: name, summary, parameters and how to build it. `--expiry` takes
/// `name[:key=value,...]` with two shorthands: a bare first value sets the rule's positional
/// parameter (`ttl:300s` is `ttl:duration=300s`), and a boolean parameter's bare name sets it
/// (`ttl:300s,sliding`, `http:shared`). Each rule's entry lives in the rule's file (library
/// rules in their preset's file) plus one line in ``ExpiryModel/registry``.
public struct ExpiryRuleEntry: RegistryEntry {
  public let name: String
  public let aliases: [String]
  public let summary: String
  public let parameters: [ParameterSpec]
  /// The parameter a bare first value sets, if any.
  public let positional: String?
  let build: @Sendable (Parameters) -> any ExpiryRule

  /// An entry whose rule `build` makes from validated parameters.
  public init(
    name: String, aliases: [String] = [], summary: String, parameters: [ParameterSpec] = [],
    positional: String? = nil, build: @escaping @Sendable (Parameters) -> any ExpiryRule
  ) {
    self.name = name
    self.aliases = aliases
    self.summary = summary
    self.parameters = parameters
    self.positional = positional
    self.build = build
  }

  /// `options` (the text after the colon) with the shorthands written out as `key=value`.
  func expandingShorthands(_ options: Substring) -> String {
    var items: [String] = []
    for (position, item) in options.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
      var option = item.drop(while: \.isWhitespace)
      while option.last?.isWhitespace == true { option = option.dropLast() }
      if option.contains("=") || option.isEmpty {
        items.append(String(option))
      } else if let flag = parameters.first(where: { $0.kind == .boolean && $0.name == option.lowercased() }) {
        items.append(flag.name + "=true")
      } else if position == 0, let positional {
        items.append(positional + "=" + option)
      } else {
        items.append(String(option))
      }
    }
    return items.joined(separator: ",")
  }
}
