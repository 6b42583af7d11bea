/// "Did you mean …?" for mistyped names: the closest known name by edit distance, if it is
/// close enough to be a likely typo. Cost: O(length²) per candidate.
public enum Spelling {
  /// The candidate nearest to `word` (Damerau–Levenshtein, case-insensitive) within
  /// one edit for words of up to four characters, else max(2, (length + 2) / 3) edits, or nil.
  public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(word.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.lowercased()))
      if distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    guard let best, best.distance > 0, best.distance <= (target.count <= 4 ? 1 : max(2, (target.count + 2) / 3)) else {
      return nil
    }
    return best.name
  }

  /// ` (did you mean 'x'?)` or an empty string.
  public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String {
    closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Edits (insert, delete, substitute, swap adjacent) turning `a` into `b`.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
