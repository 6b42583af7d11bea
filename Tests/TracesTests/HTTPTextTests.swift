import CacheCore
import Testing

@testable import Traces

/// The byte-level pieces the log readers use instead of Strings: borrowed text, the scratch
/// buffer, the byte-keyed memo and unescaping in place, each against the String way.
@Suite struct HTTPTextTests {
  /// Runs `body` with the UTF-8 bytes of `text`.
  func bytes<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    var copy = text
    return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
  }

  @Test(arguments: [
    #"plain"#, #"\x22v1\x22"#, #"a\"b\\c"#, #"trailing\"#, #"\x2"#, #"\xZZ"#, #"/caf\xC3\xA9?q=\x20"#, "",
  ])
  func unescapingIntoScratchMatchesTheStringWay(_ logged: String) {
    let scratch = ByteScratch(capacity: 4)
    bytes(logged) { value in
      scratch.reset(capacity: value.count)
      let text = LogFormatPattern.unescaped(value, into: scratch)
      #expect(text.string == LogFormatPattern.unescaped(value))
      #expect(text.withBytes { Array($0) } == Array(LogFormatPattern.unescaped(value).utf8))
    }
  }

  @Test func scratchKeepsWhatItLentUntilTheNextReset() {
    let scratch = ByteScratch(capacity: 2)
    bytes("https://") { scheme in
      bytes("example.com") { host in
        bytes("/a?b") { path in
          scratch.reset(capacity: scheme.count + host.count + path.count + 3)
          let url = scratch.append(scheme, host, path)
          let again = scratch.append(upTo: 3) { out in
            out.copyBytes(from: "xyz".utf8)
            return 3
          }
          #expect(String(decoding: url, as: UTF8.self) == "https://example.com/a?b")
          #expect(String(decoding: again, as: UTF8.self) == "xyz")
        }
      }
    }
  }

  @Test func memoParsesEachTextOnceAndTellsTextsApart() {
    var memo = ByteMemo<String>()
    var parsed: [String] = []
    let texts = ["public, max-age=60", "private", "public, max-age=60", "no-store", "private", ""]
    var values: [String] = []
    for text in texts {
      bytes(text) { value in
        values.append(
          memo.value(HTTPText(borrowing: value)) { bytes in
            let string = String(decoding: bytes, as: UTF8.self)
            parsed.append(string)
            return string.uppercased()
          })
      }
    }
    #expect(values == texts.map { $0.uppercased() })
    #expect(parsed == ["public, max-age=60", "private", "no-store", ""])
    // Owned and borrowed text of the same bytes are the same entry.
    #expect(memo.value(HTTPText("private")) { _ in "parsed again" } == "PRIVATE")
  }

  @Test func methodsAreUpperCased() {
    for (logged, method) in [("get", "GET"), ("HEAD", "HEAD"), ("Post", "POST"), ("purge", "PURGE"), ("", "")] {
      #expect(bytes(logged) { HTTPRecord.method($0) } == method)
    }
  }

  /// The word-at-a-time scans agree with a byte loop at every offset of seeded random lines.
  @Test func wordScansAgreeWithAByteLoop() {
    var random = SplitMix64(seed: 7)
    let alphabet: [UInt8] = Array(" \t\"\\abcXYZ019[]".utf8) + [0x00, 0x01, 0x1F, 0x20, 0x7F, 0x80, 0xFF]
    for _ in 0..<2_000 {
      let count = Int(random.next() % 40)
      let line = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
      line.withUnsafeBytes { bytes in
        #expect(ByteParsing.mayHoldControlBytes(bytes) == line.contains { $0 < 0x20 })
        for start in 0...count {
          for byte in [UInt8(ascii: " "), UInt8(ascii: "\""), 0x00, 0xFF] {
            let expected = line[start...].firstIndex(of: byte)
            #expect(ByteParsing.firstIndex(of: byte, in: bytes, from: start, to: count) == expected)
          }
        }
      }
    }
  }

  /// The HAR reader's exact decimal path gives what Double's parser gives, or leaves the text to it.
  @Test func simpleDecimalsMatchDoublesParser() {
    var random = SplitMix64(seed: 11)
    var texts = [
      "0", "-0", "7", "007", "1.5", "0.1", "-12.25", "1.", ".5", "-", "1e3", "1.5e3", "+1", "1..2",
      "9" + String(repeating: "9", count: 15),
    ]
    for _ in 0..<5_000 {
      let whole = String(random.next() % 1_000_000_000)
      let fraction = String(random.next() % 1_000_000)
      texts.append(random.next() % 2 == 0 ? whole : "\(whole).\(fraction)")
    }
    for text in texts {
      let simple = JSONStream.simpleDecimal(Array(text.utf8))
      if let simple { #expect(simple == Double(text), "\(text)") }
      if text.count <= 15, text.allSatisfy({ $0.isNumber }) { #expect(simple != nil, "\(text)") }
    }
  }

  /// The IMF-fixdate fast path reads every date as the scanning path does, and refuses what it
  /// refuses: dates in each month and case, two-digit-looking years, impossible days, other
  /// zones, and the same texts with one byte changed.
  @Test func fixedPlaceHTTPDatesAgreeWithScanning() {
    var random = SplitMix64(seed: 29)
    let months = ["Jan", "feb", "MAR", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var texts = ["Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0094 08:49:37 GMT", "Sun, 29 Feb 2023 00:00:00 GMT"]
    for _ in 0..<20_000 {
      let year = [1970, 1999, 2000, 2024, 94, 2100][Int(random.next() % 6)]
      let padded = String(repeating: "0", count: 4 - String(year).count) + String(year)
      let zone = random.next() % 10 == 0 ? "UTC" : "GMT"
      var text = Array(
        "Mon, \(two(random.next() % 33)) \(months[Int(random.next() % 12)]) \(padded) "
          + "\(two(random.next() % 25)):\(two(random.next() % 61)):\(two(random.next() % 62)) \(zone)"
      )
      if random.next() % 2 == 0 {
        let bytes: [Character] = ["0", "9", " ", ":", ",", "A", "x", "-"]
        text[Int(random.next() % UInt64(text.count))] = bytes[Int(random.next() % UInt64(bytes.count))]
      }
      texts.append(String(text))
    }
    var accepted = 0
    for text in texts {
      var copy = text
      copy.withUTF8 { bytes in
        let raw = UnsafeRawBufferPointer(bytes)
        let fast = HTTPTime.httpDate(raw)
        #expect(fast == HTTPTime.scannedHTTPDate(raw), "\(text)")
        if fast != nil { accepted += 1 }
      }
    }
    #expect(accepted > 5_000)
    for (index, name) in months.enumerated() {
      let bytes = Array(name.utf8)
      #expect(HTTPTime.month(bytes[0], bytes[1], bytes[2]) == index + 1)
    }
    #expect(HTTPTime.month(UInt8(ascii: "j"), UInt8(ascii: "u"), UInt8(ascii: "x")) == nil)
  }

  /// The URL-state table finds every key again, keys that differ only in their high or low
  /// bits included, through growth from 64 slots to many thousands.
  @Test func hashKeyedTableFindsEveryKeyAgain() {
    var table = HashKeyedTable<Int>()
    var random = SplitMix64(seed: 3)
    var keys = (0..<20_000).map { _ in random.next() }
    keys += (1...2_000).map { UInt64($0) } + (1...2_000).map { UInt64($0) << 50 }
    for (index, key) in keys.enumerated() {
      #expect(table.entry(key) { index } == index)
    }
    #expect(table.count == keys.count)
    for (index, key) in keys.enumerated() {
      #expect(table[table.entry(key) { -1 }] == index)
    }
    #expect(table.count == keys.count)
  }
}
