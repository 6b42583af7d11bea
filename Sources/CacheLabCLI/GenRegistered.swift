import ArgumentParser
import CacheCore
import Workloads

/// `cachelab gen NAME k=v ... --output FILE`: any registered generator, with the same `k=v`
/// parameters as `--trace gen:NAME:k=v,...`.
struct GenRegistered<G: TraceGenerator>: ParsableCommand {
  static var configuration: CommandConfiguration {
    let descriptor = G.descriptor
    let parameters = descriptor.parameters.map {
      "  \($0.name)=\($0.defaultValue.isEmpty ? "…" : $0.defaultValue)  \($0.help)"
    }
    let example = descriptor.example.split(separator: ":", maxSplits: 2)
    let arguments = example.count == 3 ? example[2].split(separator: ",").joined(separator: " ") : ""
    let suffix = descriptor.outputFormat == "cachelab" ? "cachelab.csv" : "oracleGeneral.bin"
    return CommandConfiguration(
      commandName: descriptor.name,
      abstract: "Write a seeded \(descriptor.name) trace: \(descriptor.summary).",
      discussion: """
        Parameters (k=v, defaults shown; the same as --trace \(descriptor.example)):
        \(parameters.joined(separator: "\n"))

        Output: \(descriptor.outputFormat == "cachelab" ? "CacheLab CSV with event rows" : "oracle-general with next-access times, or CSV time,key,size for a .csv name"). \
        The same parameters and seed always write the same file.

        Examples:
          cachelab gen \(descriptor.name) \(arguments) --seed 7 --output \(descriptor.name).\(suffix)
          cachelab run --trace \(descriptor.example) --policies lru,s3fifo --sizes 0.01,0.1
        """)
  }

  @Option(help: ArgumentHelp("Output file (written atomically).", valueName: "path"))
  var output: String

  @Argument(help: ArgumentHelp("The generator's parameters.", valueName: "k=v"))
  var parameters: [String] = []

  @Option(help: "Random seed.")
  var seed: UInt64 = 1

  @Flag(help: "Do not print the progress bar or the summary line.")
  var quiet = false

  func validate() throws {
    _ = try CLIErrors.translating { try generator() }
  }

  private func generator() throws -> any TraceGenerator {
    let entry = try GeneratorRegistry.entry(named: G.descriptor.name)
    return try entry.generator(entry.parseParameters(parameters.joined(separator: ",")))
  }

  func run() throws {
    try CLIErrors.translating {
      let bar = ProgressBar(label: "generating", quiet: quiet)
      try generator().write(seed: seed, to: output) { done, total in bar.update(done, total) }
      bar.finish()
      if !quiet {
        print("wrote \(output): \(G.descriptor.name) \(parameters.joined(separator: " ")), seed \(seed)")
      }
    }
  }
}

/// One `gen` subcommand per registered generator (zipf keeps its own option-style command).
enum GenRegisteredCommands {
  static let all: [any ParsableCommand.Type] = GeneratorRegistry.all.compactMap { entry in
    entry.descriptor.name == "zipf" ? nil : command(for: entry.generatorType)
  }

  private static func command(for type: any TraceGenerator.Type) -> any ParsableCommand.Type {
    func opened<G: TraceGenerator>(_ type: G.Type) -> any ParsableCommand.Type { GenRegistered<G>.self }
    return opened(type)
  }
}
