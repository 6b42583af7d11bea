import ArgumentParser

/// `cachelab gen`: synthetic trace generators (one subcommand each).
struct Gen: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gen",
    abstract: "Generate seeded synthetic traces.",
    discussion: """
      Every generator but http also names a trace generated per run: --trace gen:NAME:k=v,... \
      takes the same parameters as 'cachelab gen NAME k=v ...' (zipf's options are its keys).

      Examples:
        cachelab gen zipf --objects 10000 --requests 100000 --alpha 0.9 --output zipf.oracleGeneral.bin
        cachelab gen mix requests=200000 'parts=0.7*zipf(objects=1000;alpha=0.9)+0.3*scan' --output mix.oracleGeneral.bin
        cachelab run --trace gen:loop:objects=1000,requests=50000 --policies lru,arc,lirs --sizes 500,999 --ignore-size
      """,
    subcommands: [GenZipf.self, GenHTTP.self] + GenRegisteredCommands.all)
}
