import Foundation
import TestSupport
import Testing

/// The README's policy, format, preset, expiry and admission tables are what the registries print: a new entry, or
/// a changed summary, parameter or alias, fails here until the README is regenerated.
@Suite struct RegistryTablesTests {
  @Test(arguments: ["policies", "formats", "presets", "expiries", "admissions"])
  func readmeTableIsGeneratedFromTheRegistry(command: String) throws {
    let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let generated = try CLI.run([command, "--markdown"])
    #expect(generated.status == 0)
    #expect(generated.stdout.hasPrefix("| "))
    #expect(readme.contains(generated.stdout), "run `cachelab \(command) --markdown` and paste it into the README")
  }
}
