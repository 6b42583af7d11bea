extension String {
  /// The string with every `target` character replaced by `replacement`. O(n); needs no Foundation.
  public func replacingOccurrences(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
