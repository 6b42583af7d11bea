/// A table: keys in the order the document first gave them, each with its value. Lookup O(1).
public struct TOMLTable: Equatable, Sendable {
  /// The keys in document order.
  public private(set) var keys: [String] = []
  private var values: [String: TOMLValue] = [:]

  public init() {}

  /// The value of `key`, or nil.
  public subscript(key: String) -> TOMLValue? { values[key] }

  /// The keys and values in document order.
  public var entries: [(key: String, value: TOMLValue)] { keys.map { ($0, values[$0]!) } }

  /// Adds `key` (absent so far) with `value`.
  mutating func append(_ key: String, _ value: TOMLValue) {
    keys.append(key)
    values[key] = value
  }

  public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool { lhs.values == rhs.values }
}
