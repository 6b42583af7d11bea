import Foundation

/// The peer simulator's expected results (`../shared/reference/libcachesim-cloudphysics.csv`).
public struct ReferenceRow: Sendable, CustomStringConvertible {
  public var trace: String
  public var policy: String
  public var params: String
  public var capacity: Int64
  public var requests: Int64
  public var requestBytes: Int64
  public var misses: Int64
  public var missBytes: Int64

  public var description: String { "\(trace) \(policy) \(params) @\(capacity)" }
}

public enum ReferenceTable {
  /// Path of the reference CSV.
  public static let path = Paths.shared.appendingPathComponent("reference/libcachesim-cloudphysics.csv").path

  /// Whether the reference exists (always true under CI, so a missing file fails).
  public static var available: Bool { Paths.isCI || FileManager.default.fileExists(atPath: path) }

  /// All rows, parsed (quoted fields may hold commas).
  public static func rows() throws -> [ReferenceRow] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var rows: [ReferenceRow] = []
    for line in text.split(separator: "\n").dropFirst() where !line.isEmpty {
      let fields = splitCSV(String(line))
      guard fields.count == 8, let capacity = Int64(fields[3]), let requests = Int64(fields[4]),
        let bytes = Int64(fields[5]), let misses = Int64(fields[6]), let missBytes = Int64(fields[7])
      else { throw ReferenceError(line: String(line)) }
      rows.append(
        ReferenceRow(
          trace: fields[0], policy: fields[1], params: fields[2], capacity: capacity, requests: requests,
          requestBytes: bytes, misses: misses, missBytes: missBytes))
    }
    return rows
  }

  /// Rows for `policy` on the trace whose name starts with `trace`.
  public static func rows(policy: String, trace: String) throws -> [ReferenceRow] {
    try rows().filter { $0.policy == policy && $0.trace.hasPrefix(trace) }
  }

  static func splitCSV(_ line: String) -> [String] {
    var fields: [String] = []
    var current = ""
    var quoted = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
      } else if character == ",", !quoted {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current)
    return fields
  }

  struct ReferenceError: Error, CustomStringConvertible {
    let line: String
    var description: String { "unparsable reference row: \(line)" }
  }
}
