import Foundation

/// The built `cachelab` executable, next to the test runner.
public enum CLIBinary {
  public static let path: String = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for directory in [runner, runner.deletingLastPathComponent()] {
      let candidate = directory.appendingPathComponent("cachelab").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return Paths.packageRoot.appendingPathComponent(".build/debug/cachelab").path
  }()
}
