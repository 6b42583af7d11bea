import Testing

/// Every subcommand's help renders cleanly: exit 0, no stray line-continuation backslashes,
/// and the custom-engine options state their defaults.
@Suite struct HelpTextTests {
  static let commands: [[String]] = [
    ["run"], ["sweep"], ["compare"], ["merge"], ["inspect"], ["regress"], ["gen", "zipf"], ["gen", "http"],
    ["policies"], ["presets"], ["formats"],
  ]

  @Test(arguments: HelpTextTests.commands)
  func helpRendersCleanly(command: [String]) throws {
    let outcome = try CLI.run(command + ["--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("USAGE: cachelab \(command.joined(separator: " "))"), "\(outcome.stdout)")
    #expect(!outcome.stdout.contains(" \\\n") && !outcome.stdout.hasSuffix("\\"), "a literal backslash in \(command)")
  }

  @Test func customEngineOptionsShowTheirDefaults() throws {
    let help = try CLI.run(["run", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
    for option in ["--expiry", "--write-policy", "--promote", "--disk-backend"] {
      let start = try #require(help.range(of: option))
      let window = help[start.lowerBound...].prefix(400)
      #expect(window.contains("(default:"), "\(option) lacks its default")
    }
  }
}
