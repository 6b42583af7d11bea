import Testing

@testable import Traces

/// The CSV parser's memo of header values: a repeated text is parsed once, a text that shares
/// its slot (or its length and both ends) never gets another's value, a long text and a
/// failed parse are not remembered.
@Suite struct FieldMemoTests {
  /// The memo's value of `text`, counting the parses it makes.
  static func value(_ memo: FieldMemo<String>, _ text: String, parses: inout Int) throws -> String {
    let bytes = Array(text.utf8)
    var count = 0
    defer { parses += count }
    return try bytes.withUnsafeBytes { (field) throws -> String in
      try memo.value(field) { (field) throws(LineError) -> String in
        count += 1
        let parsed = String(decoding: field, as: UTF8.self)
        if parsed.hasPrefix("bad") { throw LineError("bad text") }
        return parsed.uppercased()
      }
    }
  }

  @Test func aRepeatedTextIsParsedOnce() throws {
    let memo = FieldMemo<String>(slots: 16)
    var parses = 0
    for _ in 0..<5 {
      #expect(try Self.value(memo, "public, max-age=86400", parses: &parses) == "PUBLIC, MAX-AGE=86400")
    }
    #expect(parses == 1)
  }

  @Test func textsSharingASlotKeepTheirOwnValues() throws {
    let memo = FieldMemo<String>(slots: 1)
    var parses = 0
    // Same length, same first and last eight bytes: only the middle differs.
    let texts = ["no-cache, x=1, max-age=60", "no-cache, x=2, max-age=60", "a", "b"]
    for text in texts + texts { #expect(try Self.value(memo, text, parses: &parses) == text.uppercased()) }
    #expect(parses == 8)  // one slot: each text replaced the one before
  }

  @Test func longTextsAndFailuresAreNotRemembered() throws {
    let memo = FieldMemo<String>()
    var parses = 0
    let long = String(repeating: "x", count: FieldMemo<String>.textBytes + 1)
    for _ in 0..<3 { #expect(try Self.value(memo, long, parses: &parses) == long.uppercased()) }
    #expect(parses == 3)
    parses = 0
    for _ in 0..<2 { #expect(throws: LineError.self) { try Self.value(memo, "bad value", parses: &parses) } }
    #expect(parses == 2)
  }
}
