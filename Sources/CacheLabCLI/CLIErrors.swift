import ArgumentParser
import CacheCore
import Replay
import Traces

/// Maps library errors to the CLI's contract: configuration mistakes are usage errors
/// (exit 64 with usage); trace, file and internal errors print their message (exit 1).
enum CLIErrors {
  /// Runs `body`, translating errors for ArgumentParser.
  static func translating<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ConfigurationError {
      if error.code == .mismatchedData { throw Failure(message: error.description) }
      throw ValidationError(error.description)
    } catch let error as ReplayError {
      if case .configuration(let configuration) = error { throw ValidationError(configuration.description) }
      throw Failure(message: error.description)
    } catch let error as TraceError {
      throw Failure(message: error.description)
    } catch let error as FileError {
      throw Failure(message: error.description)
    }
  }
}

/// A failure to report as `Error: message` with exit code 1.
struct Failure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
