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

  /// Whether tests that time real work against a model are left to a run of their own
  /// (`CACHELAB_MEASURE_ALONE=1`: `Scripts/test.sh` runs the suite so, then those tests
  /// alone), where the other suites' threads cannot preempt what they time.
  public static let measurementsRunAlone = ProcessInfo.processInfo.environment["CACHELAB_MEASURE_ALONE"] == "1"

  /// Whether a shared trace exists; under CI always true so the test runs and fails
  /// loudly on a missing file instead of skipping.
  public static func sharedTraceAvailable(_ relative: String) -> Bool {
    isCI || FileManager.default.fileExists(atPath: sharedTrace(relative))
  }

  /// The prefix of each test process's folder in the system's temporary directory.
  static let processFolderPrefix = "cachelab-tests-"

  /// This process's folder for temporaries: made on first use, removed when the process
  /// exits; folders of earlier test processes that are gone (killed or crashed before their
  /// exit handler ran) are removed then too.
  static let processFolder: URL = {
    let base = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
    where name.hasPrefix(processFolderPrefix) {
      guard let pid = Int32(name.dropFirst(processFolderPrefix.count)), kill(pid, 0) != 0, errno == ESRCH else {
        continue
      }
      try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
    }
    let folder = base.appendingPathComponent("\(processFolderPrefix)\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: Paths.processFolder) }
    return folder
  }()

  /// A fresh, empty temporary directory in this process's folder (removed at exit).
  public static func temporaryDirectory(_ name: String = "cachelab-test") -> URL {
    let url = processFolder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
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
