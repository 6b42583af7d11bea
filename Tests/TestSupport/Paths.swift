import CacheCore
import Foundation

/// Locations the tests use: the package root, the shared traces beside it, temporaries.
public enum Paths {
  /// The package root (found from this file's path).
  public static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    preconditionFailure("Package.swift not found above \(#filePath)")
  }()

  /// `../shared` beside the package root.
  public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

  /// A path under `../shared/traces`.
  public static func sharedTrace(_ relative: String) -> String {
    shared.appendingPathComponent("traces").appendingPathComponent(relative).path
  }

  /// Whether the tests run under CI (`CI=true`), where missing shared data is a failure.
  public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

  /// Whether a shared trace exists; under CI always true so the test runs and fails
  /// loudly on a missing file instead of skipping.
  public static func sharedTraceAvailable(_ relative: String) -> Bool {
    isCI || FileManager.default.fileExists(atPath: sharedTrace(relative))
  }

  /// A fresh, empty temporary directory.
  public static func temporaryDirectory(_ name: String = "cachelab-test") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes `bytes` to a new temporary file named `name` and returns its path.
  public static func temporaryFile(_ name: String, bytes: [UInt8]) -> String {
    let url = temporaryDirectory().appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    return url.path
  }

  /// Writes `text` to a new temporary file named `name` and returns its path.
  public static func temporaryFile(_ name: String, text: String) -> String {
    temporaryFile(name, bytes: Array(text.utf8))
  }
}
