/// Splits a comma-separated list of `name[:k=v,...]` specs (`--policies`, `--admission`).
public enum SpecList {
  /// The specs of `text`. Commas separate specs, but an item of the form `key=value` (no
  /// `:`) continues the previous spec's parameters, so `lru,s3fifo:small=0.1,ghost=0.9,sieve`
  /// names three specs. O(length).
  ///
  /// - Throws: ``ConfigurationError`` for an empty item; `kind` names what the list holds.
  public static func split(_ text: String, kind: String) throws(ConfigurationError) -> [String] {
    var groups: [String] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let token = item.trimmingCharacters()
      if token.contains("="), !token.contains(":"), let last = groups.popLast() {
        groups.append(last + (last.contains(":") ? "," : ":") + token)
      } else {
        guard !token.isEmpty else {
          throw ConfigurationError(.invalidValue, "empty \(kind) name in '\(text)'")
        }
        groups.append(token)
      }
    }
    return groups
  }
}
