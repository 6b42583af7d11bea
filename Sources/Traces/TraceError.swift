import CacheCore

/// A trace that cannot be read: missing, unreadable, truncated or malformed.
///
/// Its description is `path:record: message` (or `path: message` when no record is
/// involved), the form compilers use, so editors can jump to the bad line.
public struct TraceError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What went wrong, in broad terms.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    public var description: String { name }
    /// The file could not be opened.
    public static let cannotOpen = Code(name: "cannot open")
    /// A read failed part-way.
    public static let io = Code(name: "I/O error")
    /// The file ends in the middle of a record.
    public static let truncatedRecord = Code(name: "truncated record")
    /// A record or line does not parse.
    public static let malformedRecord = Code(name: "malformed record")
    /// The trace lacks something the run needs (e.g. timestamps for a time warm-up).
    public static let unsupported = Code(name: "unsupported")
  }

  /// What went wrong.
  public var code: Code
  /// The trace file.
  public var path: String
  /// 1-based record (binary formats) or line (text formats) number; 0 if not about a record.
  public var record: Int64
  /// What is wrong, specifically.
  public var message: String

  public init(_ code: Code, path: String, record: Int64 = 0, _ message: String) {
    self.code = code
    self.path = path
    self.record = record
    self.message = message
  }

  /// This error, placed at `record` unless it already names one (a decoder's error found
  /// while reading that record).
  func located(at record: Int64) -> TraceError {
    var copy = self
    if copy.record == 0 { copy.record = record }
    return copy
  }

  public var description: String {
    let text = Self.printable(message)
    return record > 0 ? "\(path):\(record): \(text)" : "\(path): \(text)"
  }

  /// `message` safe for a terminal (``TerminalText/safe(_:)``).
  static func printable(_ message: String) -> String { TerminalText.safe(message) }
}
