/// Why a document is not valid TOML, and where (1-based line and column, in characters).
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  public let message: String

  public init(line: Int, column: Int, _ message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// `line L, column C: message`.
  public var description: String { "line \(line), column \(column): \(message)" }
}
