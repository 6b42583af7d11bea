import Foundation
import TestSupport
import Testing

/// Source rules that keep the package building on macOS as well as Linux.
@Suite struct PortabilityTests {
  /// A call spelled `Glibc.write(...)` compiles only on Linux (and `Darwin.` only on macOS);
  /// system calls go through `POSIXIO` or unqualified names under `#if canImport`.
  @Test func noSourceCallsAModuleQualifiedLibcFunction() throws {
    let sources = Paths.packageRoot.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    var checked = 0
    for case let url as URL in files where url.pathExtension == "swift" {
      let text = try String(contentsOf: url, encoding: .utf8)
      checked += 1
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for module in ["Glibc.", "Darwin."] where code.contains(module) {
          Issue.record("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(checked > 100)
  }
}
