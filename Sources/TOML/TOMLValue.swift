/// A TOML 1.0 value: what a key, an array element or a table holds.
public enum TOMLValue: Equatable, Sendable {
  case string(String)
  /// A 64-bit integer (TOML requires at least that range; larger values are an error).
  case integer(Int64)
  case float(Double)
  case boolean(Bool)
  case dateTime(TOMLDateTime)
  case array([TOMLValue])
  case table(TOMLTable)

  /// The string, or nil for another kind.
  public var string: String? { if case .string(let value) = self { value } else { nil } }
  /// The integer, or nil for another kind.
  public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
  /// The float, or nil for another kind (an integer is not a float).
  public var float: Double? { if case .float(let value) = self { value } else { nil } }
  /// The boolean, or nil for another kind.
  public var boolean: Bool? { if case .boolean(let value) = self { value } else { nil } }
  /// The array (arrays of tables included), or nil for another kind.
  public var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
  /// The table, or nil for another kind.
  public var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }

  /// What the value is, for messages: `string`, `integer`, `float`, `boolean`, `date-time`,
  /// `array`, `table`.
  public var kind: String {
    switch self {
    case .string: "string"
    case .integer: "integer"
    case .float: "float"
    case .boolean: "boolean"
    case .dateTime: "date-time"
    case .array: "array"
    case .table: "table"
    }
  }
}
