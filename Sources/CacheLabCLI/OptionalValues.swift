/// Lets `--anonymize` stand alone or take a value (`--anonymize=SALT`), which the argument
/// parser cannot express: a bare `--anonymize` becomes the hidden flag `--anonymize-random`.
enum OptionalValues {
  /// Options whose value may be left out, and the flag each becomes when it is.
  static let bare: [String: String] = ["--anonymize": "--anonymize-random"]

  /// `arguments` with each bare optional-value option replaced by its flag (up to `--`).
  static func filled(_ arguments: [String]) -> [String] {
    guard let end = arguments.firstIndex(of: "--") else { return arguments.map(fill) }
    return arguments[..<end].map(fill) + arguments[end...]
  }

  private static func fill(_ argument: String) -> String { bare[argument] ?? argument }
}
