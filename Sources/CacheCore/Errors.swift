/// A bad configuration: an unknown policy, format or parameter, or a value out of range.
///
/// Raised while a run is being set up, before any request is replayed; the CLI turns it
/// into a usage message and exit code 64.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What kind of mistake this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    public var description: String { name }
    /// A name that no registry entry has.
    public static let unknownName = Code(name: "unknown name")
    /// A `key=value` parameter whose key the policy or format does not take.
    public static let unknownParameter = Code(name: "unknown parameter")
    /// A value that does not parse or is out of range.
    public static let invalidValue = Code(name: "invalid value")
    /// Inputs whose contents do not fit together (reports of unlike configurations): a
    /// problem with the data, not with the arguments (exit 1, not 64).
    public static let mismatchedData = Code(name: "mismatched data")
  }

  /// What kind of mistake this is.
  public var code: Code
  /// A complete, user-facing explanation, including the accepted alternatives.
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

/// A broken internal invariant found by a policy's or structure's self-check.
public struct InvariantViolation: Error, CustomStringConvertible, Equatable, Sendable {
  /// What is wrong, naming the structure and the values involved.
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
