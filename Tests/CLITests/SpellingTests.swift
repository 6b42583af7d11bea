import TestSupport
import Testing

/// Mistyped options, subcommands and names get "did you mean" and exit 64.
@Suite struct SpellingTests {
  @Test(arguments: [
    (
      ["run", "--trace", "t", "--policy", "lru", "--sizes", "0.1"],
      "unknown option '--policy' (did you mean '--policies'?)"
    ),
    (
      ["run", "--trace", "t", "--policies", "lru", "--size", "0.1"], "unknown option '--size' (did you mean '--sizes'?)"
    ),
    (
      ["run", "--trace", "t", "--polices", "lru", "--sizes", "0.1"],
      "unknown option '--polices' (did you mean '--policies'?)"
    ),
    (["sweep", "--trace", "t", "--polcies=lru"], "unknown option '--polcies' (did you mean '--policies'?)"),
    (["rnu"], "unknown subcommand 'rnu' (did you mean 'run'?)"),
    (["gen", "zpf"], "unknown subcommand 'zpf' (did you mean 'zipf'?)"),
    (["run", "--trace", "t", "--bogus-thing", "1"], "unknown option '--bogus-thing'"),
  ])
  func mistypedOptionsAndSubcommands(arguments: [String], message: String) throws {
    let outcome = try CLI.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("Usage: cachelab"))
  }

  @Test(arguments: [
    ("--policies", "lruu", "unknown policy 'lruu' (did you mean 'lru'?)"),
    ("--policies", "s3-fif0", "unknown policy 's3-fif0' (did you mean 's3-fifo'?)"),
    ("--preset", "sdwebimag", "unknown preset 'sdwebimag' (did you mean 'sdwebimage'?)"),
    ("--format", "oracle-generl", "unknown trace format 'oracle-generl' (did you mean 'oracle-general'?)"),
  ])
  func mistypedNames(option: String, value: String, message: String) throws {
    let trace = "Traces/zipf-demo.oracleGeneral.bin"
    var arguments = ["run", "--trace", Paths.packageRoot.appendingPathComponent(trace).path, option, value]
    if option != "--preset" { arguments += ["--sizes", "1MiB"] }
    if option == "--format" { arguments += ["--policies", "lru"] }
    let outcome = try CLI.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
  }

  @Test func correctSpellingsPassThrough() throws {
    #expect(try CLI.run(["run", "--help"]).status == 0)
    #expect(try CLI.run(["presets", "--names"]).status == 0)
  }
}
