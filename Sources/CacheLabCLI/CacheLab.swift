import ArgumentParser
import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `cachelab` command: configuration and subcommands only.
public struct CacheLab: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "cachelab",
    abstract: "Cache-policy simulator and benchmark suite.",
    discussion: """
      Replays request traces through eviction policies and cache sizes and reports hit \
      ratios, miss bytes and simulator speed. Bad arguments exit 64; unreadable or \
      malformed input files exit 1 with 'path:line: message'.
      """,
    version: "0.1.0",
    subcommands: [
      Run.self, Sweep.self, Compare.self, Merge.self, Inspect.self, Regress.self, Gen.self, Policies.self, Presets.self,
      Formats.self, Expiries.self, Admissions.self, Profiles.self, Calibrate.self, Columns.self, Convert.self,
    ]
  )

  public init() {}

  /// Runs the command line: expands a study file (`--config`) into one invocation per trace,
  /// parses each (a mistyped subcommand or option gets a did-you-mean, exit 64) and runs it.
  public static func main() {
    let given = OptionalValues.filled(NegativeValues.joined(Array(CommandLine.arguments.dropFirst())))
    let invocations: [[String]]
    if let repeated = RepeatedOptions.first(in: given) {
      exit(withError: ValidationError("\(repeated) is given twice; give each option once"))
    }
    do {
      invocations = try StudyFile.expand(given) ?? [given]
    } catch {
      exit(withError: error)
    }
    for arguments in invocations {
      var command: any ParsableCommand
      do {
        command = try parseAsRoot(arguments)
      } catch {
        // Only a failed parse pays for the spelling check (it renders every help text).
        if let problem = ArgumentSpelling.problem(arguments, root: CacheLab.self) {
          StandardError.write(
            "Error: \(problem.message)\nUsage: \(problem.command) <options>\n"
              + "  See '\(problem.command) --help' for more information.\n")
          POSIXIO.exitProcess(ExitCode.validationFailure.rawValue)
        }
        if let study = StudyFile.source(of: arguments), exitCode(for: error) == .validationFailure {
          exit(withError: ValidationError("\(study): " + message(for: error)))
        }
        exit(withError: error)
      }
      do {
        try command.run()
      } catch {
        exit(withError: error)
      }
      if invocations.count > 1 || arguments != given { StudyFile.record(arguments) }
    }
  }
}
