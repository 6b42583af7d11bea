import CacheCore
import Replay

/// The CSV report's rows as JSON: an array with one object per row, keyed by the same column
/// names in the same order; numeric cells are JSON numbers, `true`/`false` booleans, empty
/// cells `null`, the rest strings.
public enum JSONReport {
  /// The JSON text for `runs`.
  public static func render(_ runs: [RunResult], columns: [ReportColumn] = ReportColumn.standard) -> String {
    let rows = ReportRow.rows(runs)
    var text = "[\n"
    for (number, row) in rows.enumerated() {
      let fields = columns.map { column in "\(string(column.name)): \(value(column.value(of: row)))" }
      text += "  {" + fields.joined(separator: ", ") + "}" + (number + 1 < rows.count ? "," : "") + "\n"
    }
    return text + "]\n"
  }

  /// A cell as a JSON value.
  static func value(_ cell: String) -> String {
    if cell.isEmpty { return "null" }
    if cell == "true" || cell == "false" { return cell }
    return isNumber(cell) ? cell : string(cell)
  }

  /// Whether `text` is a JSON number as written: `-`? (`0` | [1-9][0-9]*) (`.`[0-9]+)?
  /// ([eE][+-]?[0-9]+)?.
  static func isNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    func digits() -> Int {
      let count = bytes.prefix { isDigit($0) }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    if bytes.first == UInt8(ascii: "0") {
      bytes = bytes.dropFirst()
    } else if digits() == 0 {
      return false
    }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }

  /// `text` as a JSON string literal.
  static func string(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
