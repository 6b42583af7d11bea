import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A CSV report read back from a file: its header and rows of fields (RFC 4180 quotes).
/// Reads the whole file (reports are small: one row per cache).
public struct ReportTable: Sendable, Equatable {
  /// Where it was read from (for messages).
  public let path: String
  public let header: [String]
  public var rows: [[String]]
  /// The line each row starts on (1 is the header's), for `path:line` messages.
  public var lines: [Int]

  /// A table of `rows`; without `lines`, rows are numbered from line 2 on.
  public init(path: String, header: [String], rows: [[String]], lines: [Int]? = nil) {
    self.path = path
    self.header = header
    self.rows = rows
    self.lines = lines ?? rows.indices.map { $0 + 2 }
  }

  /// `path:line` of row `index`.
  public func location(ofRow index: Int) -> String {
    "\(path):\(index < lines.count ? lines[index] : index + 2)"
  }

  /// Reads and parses the report at `path`.
  ///
  /// - Throws: ``FileError`` naming `path:line` for an unreadable file, an unterminated
  ///   quote or a row whose field count differs from the header's.
  public init(contentsOf path: String) throws(FileError) {
    try self.init(path: path, text: String(decoding: try readWholeFile(path), as: UTF8.self))
  }

  /// Parses report `text` (named `path` in messages).
  public init(path: String, text: String) throws(FileError) {
    var records: [[String]] = []
    var lines: [Int] = []
    var field = ""
    var record: [String] = []
    var quoted = false
    var line = 1
    var recordLine = 1
    var atFieldStart = true
    var iterator = text.makeIterator()
    var pending: Character?
    while let character = pending ?? iterator.next() {
      pending = nil
      if quoted {
        if character == "\"" {
          let next = iterator.next()
          if next == "\"" {
            field.append("\"")
          } else {
            quoted = false
            pending = next
          }
        } else {
          if character == "\n" || character == "\r\n" { line += 1 }
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where atFieldStart:
        quoted = true
        atFieldStart = false
      case ",":
        record.append(field)
        field = ""
        atFieldStart = true
      case "\n", "\r\n", "\r":
        record.append(field)
        records.append(record)
        lines.append(recordLine)
        record = []
        field = ""
        atFieldStart = true
        line += 1
        recordLine = line
      default:
        field.append(character)
        atFieldStart = false
      }
    }
    if quoted { throw FileError(path: "\(path):\(recordLine)", "unterminated quoted field") }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
      lines.append(recordLine)
    }
    guard let header = records.first, header != [""] else { throw FileError(path: path, "empty report (no header)") }
    for (index, row) in records.enumerated().dropFirst() where row.count != header.count {
      throw FileError(
        path: "\(path):\(lines[index])", "expected \(header.count) fields as in the header, found \(row.count)")
    }
    self.init(path: path, header: header, rows: Array(records.dropFirst()), lines: Array(lines.dropFirst()))
  }

  /// Index of column `name`.
  ///
  /// - Throws: ``FileError`` if the report has no such column.
  public func column(_ name: String) throws(FileError) -> Int {
    guard let index = header.firstIndex(of: name) else {
      throw FileError(path: "\(path):1", "the report has no '\(name)' column")
    }
    return index
  }

  /// The value of column `name` in `row`, or nil if the column is missing.
  public func value(_ row: [String], _ name: String) -> String? {
    header.firstIndex(of: name).map { row[$0] }
  }

  /// The report as CSV text (fields quoted where needed).
  public func render() -> String {
    var text = header.map(CSVReport.quote).joined(separator: ",") + "\n"
    for row in rows { text += row.map(CSVReport.quote).joined(separator: ",") + "\n" }
    return text
  }
}
