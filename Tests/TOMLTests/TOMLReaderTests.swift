import Foundation
import TOML
import TestSupport
import Testing

/// The TOML reader on documents whose meaning is known, on broken ones (the line and column of
/// the first fault), and against Python's tomllib on seeded random documents.
@Suite struct TOMLReaderTests {
  @Test func readsAStudyFileInDocumentOrder() throws {
    let table = try TOMLReader.parse(
      """
      # a study
      [[trace]]
      path = "a/web.bin"   # relative to the study
      warmup = 0.25
      [[trace]]
      path = 'b\\web.bin'
      ignore-size = true
      [run]
      policies = ["lru", "s3fifo",]
      sizes = [0.1, 1]
      repeat = 3
      when = 1979-05-27T07:32:00.123456789-07:00
      """)
    #expect(table.keys == ["trace", "run"])
    let traces = try #require(table["trace"]?.array)
    #expect(traces.count == 2)
    #expect(traces[0].table?.keys == ["path", "warmup"])
    #expect(traces[0].table?["warmup"] == .float(0.25))
    #expect(traces[1].table?["path"] == .string("b\\web.bin"))
    #expect(traces[1].table?["ignore-size"]?.boolean == true)
    let run = try #require(table["run"]?.table)
    #expect(run["policies"] == .array([.string("lru"), .string("s3fifo")]))
    #expect(run["sizes"] == .array([.float(0.1), .integer(1)]))
    #expect(run["repeat"]?.integer == 3 && run["repeat"]?.float == nil)
    #expect(run["when"]?.kind == "date-time")
    #expect(run["when"].map { "\($0)" }?.contains("07:32:00.123456789-07:00") == true)
  }

  @Test func acceptsOneByteOrderMarkAndCRLF() throws {
    let table = try TOMLReader.parse(utf8: [0xEF, 0xBB, 0xBF] + Array("a = 1\r\nb = \"x\"\r\n".utf8))
    #expect(table["a"] == .integer(1) && table["b"] == .string("x"))
  }

  /// Each broken document, the line and column of its first fault, and words of the message.
  static let broken: [(text: String, line: Int, column: Int, words: String)] = [
    ("a = 1\na = 2\n", 2, 1, "a"),
    ("[t]\nx = 1\n[t]\n", 3, 1, "defined twice"),
    ("a = \"open\nb = 1\n", 1, 10, "cannot contain a newline"),
    ("a = 1 b = 2\n", 1, 7, "found"),
    ("a = 0x\n", 1, 5, "0x"),
    ("a = 1979-02-30\n", 1, 5, "invalid date"),
    ("a = 9223372036854775808\n", 1, 5, "64 bits"),
    ("a = [1,\n2\nb = 3\n", 3, 1, "in an array"),
    ("a = \"\u{7}\"\n", 1, 6, "control character"),
    ("a = 1\r\n\rb = 2\n", 2, 1, "U+000D"),
  ]

  @Test(arguments: 0..<broken.count) func refusesABrokenDocumentWhereItBreaks(_ number: Int) {
    let (text, line, column, words) = Self.broken[number]
    #expect {
      try TOMLReader.parse(text)
    } throws: { error in
      guard let error = error as? TOMLError else { return false }
      return error.line == line && error.column == column && error.message.contains(words)
    }
  }

  @Test func refusesTextThatIsNotUTF8WithItsLine() {
    #expect(throws: TOMLError.self) { try TOMLReader.parse(utf8: Array("a = 1\nb = \"".utf8) + [0xC3, 0x28, 0x22]) }
    do {
      _ = try TOMLReader.parse(utf8: Array("a = 1\nb = \"".utf8) + [0xFF, 0x22])
    } catch {
      #expect(error.line == 2 && error.message.contains("UTF-8"), "\(error)")
    }
  }

  /// Nesting deeper than the limit is an error, not a stack overflow.
  @Test func deepNestingEndsInAnError() throws {
    let depth = TOMLReader.maximumDepth
    let within = "a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(try TOMLReader.parse(within)["a"]?.array != nil)
    let beyond = "a = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: TOMLError.self) { try TOMLReader.parse(beyond) }
    let tables = "a = " + String(repeating: "{b = ", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
    #expect(throws: TOMLError.self) { try TOMLReader.parse(tables) }
  }

  /// 4,000 seeded documents from `Scripts/toml_cases.py` (half with one character deleted or
  /// inserted): the reader accepts exactly those tomllib accepts, with the same values.
  @Test(arguments: [1, 2]) func agreesWithPythonsTomllib(seed: Int) throws {
    guard let lines = try Self.tomllibCases(seed: seed, count: 2_000) else { return }
    var accepted = 0
    var disagreements: [String] = []
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let text = try #require(object["doc"] as? String)
      let expected = try #require(object["ok"] as? Bool)
      let ours: TOMLTable?
      do { ours = try TOMLReader.parse(text) } catch { ours = nil }
      guard expected == (ours != nil) else {
        disagreements.append("tomllib \(expected ? "accepts" : "refuses"), we do not: \(text.debugDescription)")
        continue
      }
      guard let ours else { continue }
      accepted += 1
      let mine = try JSONSerialization.data(withJSONObject: Self.canonical(.table(ours)), options: .sortedKeys)
      let theirs = try JSONSerialization.data(withJSONObject: object["value"] as Any, options: .sortedKeys)
      if mine != theirs {
        disagreements.append(
          "\(text.debugDescription): ours \(String(decoding: mine, as: UTF8.self)), "
            + "tomllib \(String(decoding: theirs, as: UTF8.self))")
      }
    }
    #expect(lines.count == 2_000)
    #expect(accepted > 600 && accepted < 1_900, "a useful mix of valid and invalid documents: \(accepted) valid")
    #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
  }

  /// The lines of `Scripts/toml_cases.py SEED COUNT`, or nil (after saying why) where there
  /// is no Python 3.11+ (with tomllib) outside CI; under `CI=true` that is a failure.
  static func tomllibCases(seed: Int, count: Int) throws -> [String]? {
    let probe = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import tomllib"])
    guard probe?.status == 0 else {
      let reason = "the tomllib comparison needs python3 with tomllib (3.11+): \(probe?.stderr.suffix(200) ?? "")"
      if Paths.isCI { Issue.record(Comment(rawValue: reason)) } else { print("skipped: \(reason)") }
      return nil
    }
    let script = Paths.packageRoot.appendingPathComponent("Scripts/toml_cases.py").path
    let outcome = try ChildProcess.run("/usr/bin/env", ["python3", script, "\(seed)", "\(count)"])
    #expect(outcome.status == 0, "Scripts/toml_cases.py failed: \(outcome.stderr.suffix(500))")
    return outcome.stdout.split(separator: "\n").map(String.init)
  }

  /// The tagged JSON form `Scripts/toml_cases.py` gives tomllib's values (see its header).
  static func canonical(_ value: TOMLValue) -> Any {
    switch value {
    case .string(let text): return ["string", text]
    case .integer(let number): return ["integer", String(number)]
    case .float(let number):
      let bits = String(number.bitPattern, radix: 16)
      return ["float", number.isNaN ? "nan" : String(repeating: "0", count: 16 - bits.count) + bits]
    case .boolean(let flag): return ["bool", flag]
    case .dateTime(let moment):
      let time = moment.time.map { [$0.hour, $0.minute, $0.second, $0.nanosecond / 1_000] as [Any] }
      if let date = moment.date {
        let day: [Any] = [date.year, date.month, date.day]
        guard let time else { return ["date"] + day }
        return ["datetime"] + day + time + [moment.offsetMinutes.map { $0 as Any } ?? NSNull()]
      }
      return ["time"] + (time ?? [])
    case .array(let items): return items.map(canonical)
    case .table(let table): return Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, canonical($0.value)) })
    }
  }
}
