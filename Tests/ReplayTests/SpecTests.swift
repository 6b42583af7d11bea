import CacheCore
import Replay
import Testing

@Suite struct CapacitySpecTests {
  @Test(arguments: [
    ("512", CapacitySpec.absolute(512)), ("64KiB", .absolute(65536)), ("1.5GiB", .absolute(1_610_612_736)),
    ("0.1", .fraction(0.1)), ("10%", .fraction(0.1)), ("1.0", .fraction(1)), ("2MB", .absolute(2_000_000)),
  ])
  func parsesByteModeSizes(text: String, expected: CapacitySpec) throws {
    #expect(try CapacitySpec(parsing: text, objectMode: false) == expected)
  }

  @Test(arguments: ["0", "-5", "abc", "1.5", "0.0", "150%", "", "1e3", "5XB"])
  func rejectsBadSizes(text: String) {
    #expect(throws: ConfigurationError.self) { _ = try CapacitySpec(parsing: text, objectMode: false) }
  }

  @Test func objectModeCountsObjects() throws {
    #expect(try CapacitySpec(parsing: "1000", objectMode: true) == .absolute(1000))
    #expect(try CapacitySpec(parsing: "0.5", objectMode: true) == .fraction(0.5))
    #expect(throws: ConfigurationError.self) { _ = try CapacitySpec(parsing: "64KiB", objectMode: true) }
    #expect(try CapacitySpec.parseList("1,2,0.5", objectMode: true).count == 3)
    #expect(throws: ConfigurationError.self) { _ = try CapacitySpec.parseList("1,,2", objectMode: true) }
  }

  @Test func fractionsResolveAgainstTheWorkingSet() {
    #expect(CapacitySpec.fraction(0.1).resolve(workingSet: 1005) == 100)
    #expect(CapacitySpec.absolute(7).resolve(workingSet: nil) == 7)
  }
}

@Suite struct WarmupSpecTests {
  @Test(arguments: [
    ("0.2", WarmupSpec.fraction(0.2)), ("0", .none), ("3600s", .traceTime(3_600_000_000)),
    ("30m", .traceTime(1_800_000_000)),
    ("2h", .traceTime(7_200_000_000)), ("1d", .traceTime(86_400_000_000)), ("1.5s", .traceTime(1_500_000)),
    ("500ms", .traceTime(500_000)),
  ])
  func parses(text: String, expected: WarmupSpec) throws {
    #expect(try WarmupSpec(parsing: text) == expected)
  }

  @Test(arguments: ["1", "1.5", "-0.1", "abc", "5x", "s"])
  func rejects(text: String) {
    #expect(throws: ConfigurationError.self) { _ = try WarmupSpec(parsing: text) }
  }
}
