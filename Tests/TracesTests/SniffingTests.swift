import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// Format inference without `--format`: by name, else by content, for every shared trace.
@Suite struct SniffingTests {
  static let shared = SharedTraces.all

  @Test(arguments: shared)
  func everySharedTraceIsRecognised(trace: String, format: String) throws {
    guard Paths.sharedTraceAvailable(trace) else {
      print("skipping: ../shared/traces/\(trace) is missing")
      return
    }
    let spec = try TraceSpec(format: nil, inferringFrom: Paths.sharedTrace(trace))
    #expect(spec.format.name == format, "\(trace): \(spec.format.name) (\(spec.note ?? ""))")
  }

  /// The same files renamed to say nothing: the content alone decides.
  @Test(arguments: shared.filter { $0.0.hasPrefix("libcachesim/") || $0.0.hasPrefix("cache2k/web07") })
  func contentAloneDecides(trace: String, format: String) throws {
    guard Paths.sharedTraceAvailable(trace) else {
      print("skipping: ../shared/traces/\(trace) is missing")
      return
    }
    let copy = Paths.temporaryDirectory().appendingPathComponent("trace").path
    try FileManager.default.copyItem(atPath: Paths.sharedTrace(trace), toPath: copy)
    let spec = try TraceSpec(format: nil, inferringFrom: copy)
    #expect(spec.format.name == format, "\(trace): \(spec.format.name)")
    #expect(spec.note?.hasPrefix("from content: ") == true)
  }

  /// Keys that never repeat fit 32- and 64-bit readings alike: both are listed, and the
  /// error is a usage error.
  @Test func ambiguousContentListsTheCandidates() throws {
    var random = SplitMix64(seed: 3)
    var bytes: [UInt8] = []
    for _ in 0..<4096 { SyntheticTraces.append(&bytes, random.next()) }
    let path = Paths.temporaryFile("keys.bin", bytes: bytes)
    do {
      _ = try TraceSpec(format: nil, inferringFrom: path)
      Issue.record("expected an ambiguity")
    } catch let error as ConfigurationError {
      #expect(error.message.contains("ambiguous") && error.message.contains("int32-be"), "\(error)")
      #expect(error.message.contains("int64-be") && error.message.contains("--format"), "\(error)")
    }
  }

  @Test func binaryNoiseIsNotGuessed() throws {
    let path = Paths.temporaryFile("noise", bytes: [0x00, 0x01, 0x02, 0xFF, 0x10])
    #expect(throws: ConfigurationError.self) { _ = try TraceSpec(format: nil, inferringFrom: path) }
  }

  @Test func formatColonPathIsAShorthand() throws {
    let path = Paths.temporaryFile("keys.dat", text: "1\n2\n1\n")
    let (format, rest) = TraceSpec.shorthand("txt:" + path)
    #expect(format == "txt" && rest == path)
    #expect(TraceSpec.shorthand(path) == (nil, path))
    #expect(TraceSpec.shorthand("nosuchformat:" + path) == (nil, "nosuchformat:" + path))
  }
}

/// Detection is remembered per file for the process (a command resolves its options twice),
/// but a file rewritten in place is sniffed again.
@Suite struct SniffMemoTests {
  @Test func aRewrittenFileIsSniffedAgain() throws {
    let path = Paths.temporaryDirectory("memo").appendingPathComponent("trace").path
    try Data((0..<200).map { "\($0 % 13)\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    let first = try TraceSpec(format: nil, inferringFrom: path)
    #expect(try TraceSpec(format: nil, inferringFrom: path).format.name == first.format.name)
    try Data(SyntheticTraces.oracleGeneral((0..<50).map { Request(key: UInt64($0 % 7)) })).write(
      to: URL(fileURLWithPath: path))
    let second = try TraceSpec(format: nil, inferringFrom: path)
    #expect(
      first.format.name != second.format.name && second.format.name == "oracle-general",
      "\(first.format.name) then \(second.format.name)")
  }
}
