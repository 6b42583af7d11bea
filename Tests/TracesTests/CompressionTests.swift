import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// Compressed traces: zstd, xz and gzip, detected by their first bytes, streamed through the
/// same readers; a truncated or corrupt file is `path:record: message`.
@Suite struct CompressionTests {
  static let requests = SyntheticTraces.requests(count: 60_000, objects: 5000, sizes: 1...100_000, seed: 9)

  /// A plain oracleGeneral file of ``requests`` and its compressed copy named `name`.
  static func compressed(_ kind: Compression, name: String) throws -> (plain: String, packed: String) {
    let plain = Paths.temporaryFile("plain.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
    let packed = Paths.temporaryDirectory().appendingPathComponent(name).path
    let writer = try AtomicFileWriter(path: packed)
    try kind.compress(file: plain, into: writer)
    try writer.commit()
    return (plain, packed)
  }

  static func readAll(_ path: String, format: String? = nil) throws -> (requests: [Request], spec: TraceSpec) {
    let spec = try TraceSpec(format: format, inferringFrom: path)
    return (try spec.open(path).collect(), spec)
  }

  @Test(arguments: Compression.allCases)
  func compressedTracesReadLikeThePlainFile(kind: Compression) throws {
    let (plain, packed) = try Self.compressed(kind, name: "t.oracleGeneral.bin" + kind.suffixes[0])
    let expected = try Self.readAll(plain).requests
    #expect(expected.count == Self.requests.count)
    let (read, spec) = try Self.readAll(packed)
    #expect(spec.format.name == "oracle-general")
    #expect(spec.note == kind.rawValue)
    #expect(read == expected)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: packed)[.size] as? Int)
    #expect(size < Self.requests.count * 24 / 2, "\(kind) should shrink the file")
  }

  /// Detection is by magic bytes: a compressed file without any suffix is still decoded,
  /// and its format found from the decompressed content.
  @Test(arguments: Compression.allCases)
  func compressionIsDetectedWithoutASuffix(kind: Compression) throws {
    let (plain, packed) = try Self.compressed(kind, name: "noname")
    let (read, spec) = try Self.readAll(packed)
    #expect(spec.format.name == "oracle-general")
    #expect(spec.note?.hasPrefix(kind.rawValue + ", from content") == true, "\(spec.note ?? "nil")")
    #expect(read == (try Self.readAll(plain).requests))
  }

  @Test(arguments: Compression.allCases)
  func truncatedCompressedTracesFailAtARecord(kind: Compression) throws {
    let (_, packed) = try Self.compressed(kind, name: "cut.oracleGeneral.bin" + kind.suffixes[0])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: packed))
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: packed))
    do {
      let read = try Self.readAll(packed).requests
      Issue.record("read \(read.count) requests from a truncated file")
    } catch let error as TraceError {
      #expect(error.record > 0 && error.record < Int64(Self.requests.count), "\(error)")
      #expect(error.description.hasPrefix("\(packed):\(error.record): "), "\(error)")
      #expect(error.message.contains("truncated") || error.message.contains("corrupt"), "\(error)")
    }
  }

  @Test(arguments: Compression.allCases)
  func corruptCompressedTracesFailCleanly(kind: Compression) throws {
    let (_, packed) = try Self.compressed(kind, name: "bad.oracleGeneral.bin" + kind.suffixes[0])
    var bytes = try Data(contentsOf: URL(fileURLWithPath: packed))
    for index in stride(from: 64, to: min(bytes.count, 4096), by: 7) { bytes[index] ^= 0x5A }
    try bytes.write(to: URL(fileURLWithPath: packed))
    #expect(throws: TraceError.self) { _ = try Self.readAll(packed) }
  }

  /// Concatenated frames or members (as `cat a.zst b.zst` makes) read as one trace.
  @Test(arguments: Compression.allCases)
  func concatenatedStreamsReadInOrder(kind: Compression) throws {
    let (plain, packed) = try Self.compressed(kind, name: "twice.oracleGeneral.bin" + kind.suffixes[0])
    let once = try Data(contentsOf: URL(fileURLWithPath: packed))
    try (once + once).write(to: URL(fileURLWithPath: packed))
    let read = try Self.readAll(packed, format: "int64-be").requests
    let plainKeys = try Self.readAll(plain, format: "int64-be").requests
    #expect(read == plainKeys + plainKeys)
  }

  /// Files compressed by the real command-line tools (when installed) decode to the same bytes.
  @Test(arguments: [("zstd", [String](), ".zst"), ("xz", ["-k", "-c"], ".xz"), ("gzip", ["-c"], ".gz")])
  func filesFromTheRealToolsDecode(tool: String, arguments: [String], suffix: String) throws {
    let executable = ["/usr/bin/\(tool)", "/bin/\(tool)", "/opt/homebrew/bin/\(tool)"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let executable else {
      print("skipping: \(tool) is not installed")
      return
    }
    let plain = Paths.temporaryFile("tool.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(Self.requests))
    let packed = plain + suffix
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = tool == "zstd" ? ["-q", "-f", plain, "-o", packed] : arguments + [plain]
    if tool != "zstd" {
      FileManager.default.createFile(atPath: packed, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: packed))
    }
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(try Self.readAll(packed).requests == (try Self.readAll(plain).requests))
  }
}
