import CacheCore
import Engine
import Traces

/// Why a run could not complete.
public enum ReplayError: Error, CustomStringConvertible {
  /// The options do not fit the trace (e.g. a capacity resolving to zero); a usage error.
  case configuration(ConfigurationError)
  /// The trace could not be read.
  case trace(TraceError)
  /// A policy's self-check failed at the end of the run (a bug in the policy).
  case invariant(policy: String, capacity: Int64, InvariantViolation)
  /// An engine's disk store failed (e.g. a full disk).
  case engine(label: String, EngineError)

  public var description: String {
    switch self {
    case .configuration(let error): return error.description
    case .trace(let error): return error.description
    case .invariant(let policy, let capacity, let violation):
      return "internal error: \(policy) at capacity \(capacity) broke an invariant: \(violation)"
    case .engine(let label, let error):
      return "\(label): \(error)"
    }
  }
}
