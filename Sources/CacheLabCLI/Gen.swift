import ArgumentParser

/// `cachelab gen`: synthetic trace generators (one subcommand each).
struct Gen: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Generate seeded synthetic traces.",
    subcommands: [GenZipf.self, GenHTTP.self])
}
