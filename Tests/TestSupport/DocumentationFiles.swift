import Foundation

/// The Markdown a user reads: the README, every page under docs/, and the README files of
/// Traces/ and Reports/.
public enum DocumentationFiles {
  /// Their URLs, README.md first, then the rest by path.
  public static var all: [URL] {
    let root = Paths.packageRoot
    var files = [root.appendingPathComponent("README.md")]
    let docs = root.appendingPathComponent("docs")
    var pages: [URL] = []
    if let walker = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
      for case let url as URL in walker where url.pathExtension == "md" { pages.append(url) }
    }
    files += pages.sorted { $0.path < $1.path }
    files += ["Traces/README.md", "Reports/README.md"].map { root.appendingPathComponent($0) }
    return files.filter { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// The path of `url` relative to the package root (`docs/policies.md`).
  public static func relativePath(_ url: URL) -> String {
    let root = Paths.packageRoot.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
  }

  /// Every file's text, concatenated (for "is it documented somewhere" checks).
  public static var combinedText: String {
    all.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
  }
}
