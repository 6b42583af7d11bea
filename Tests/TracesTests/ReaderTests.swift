import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// Every format on small files: values, edge cases and the error for each bad input.
@Suite struct ReaderTests {
  static func read(_ path: String, _ format: String, batch: Int = 4096) throws -> [Request] {
    let reader = try TraceSpec(parsing: format).open(path)
    var result: [Request] = []
    let requests = RequestBatch(capacity: batch)
    while try reader.read(into: requests) { requests.withRequests { result.append(contentsOf: $0) } }
    #expect(reader.requestsRead == Int64(result.count))
    return result
  }

  static func expectError(_ path: String, _ format: String, record: Int64, containing text: String) {
    do {
      _ = try read(path, format)
      Issue.record("expected an error for \(format)")
    } catch let error as TraceError {
      #expect(error.record == record, "\(error)")
      #expect(error.description.hasPrefix("\(path):\(record): "), "\(error)")
      #expect(error.message.contains(text), "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  // MARK: - Binary formats

  @Test func oracleGeneralDecodesEveryField() throws {
    let requests = [
      Request(time: 5_000_000, key: 42, size: 512), Request(time: 6_000_000, key: 7, size: 4096),
      Request(time: 6_000_000, key: 42, size: 999),
    ]
    let path = Paths.temporaryFile("t.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
    let read = try Self.read(path, "oracle-general", batch: 2)
    #expect(read.map(\.key) == [42, 7, 42])
    #expect(read.map(\.time) == [5_000_000, 6_000_000, 6_000_000])
    #expect(read.map(\.size) == [512, 4096, 999])
    #expect(read.map(\.nextAccess) == [3, Request.never, Request.never])
    #expect(try TraceSpec(parsing: "oracle-general").open(path).knownRequestCount == 3)
  }

  @Test func truncatedBinaryRecordsNameTheRecord() {
    var bytes = SyntheticTraces.oracleGeneral((0..<3).map { Request(key: UInt64($0), size: 1) })
    bytes.removeLast(5)
    Self.expectError(Paths.temporaryFile("cut.bin", bytes: bytes), "oracle-general", record: 3, containing: "truncated")
    Self.expectError(
      Paths.temporaryFile("cut.vscsi", bytes: [UInt8](repeating: 0, count: 70)), "vscsi", record: 3,
      containing: "truncated")
    Self.expectError(
      Paths.temporaryFile("cut.i32", bytes: [0, 0, 0, 1, 0, 0]), "int32-be", record: 2, containing: "truncated")
    Self.expectError(
      Paths.temporaryFile("cut.i64", bytes: [UInt8](repeating: 1, count: 12)), "int64-be", record: 2,
      containing: "truncated")
  }

  @Test func oracleNextAccessMustPointForward() {
    var bytes = SyntheticTraces.oracleGeneral((0..<3).map { Request(key: UInt64($0), size: 1) })
    // Record 2 claims its next access is record 1.
    bytes.replaceSubrange(24 + 16..<24 + 24, with: withUnsafeBytes(of: Int64(1).littleEndian, Array.init))
    Self.expectError(
      Paths.temporaryFile("bad.bin", bytes: bytes), "oracle-general", record: 2, containing: "next_access_vtime 1")
  }

  @Test func vscsiTakesBlockLengthAndMicroseconds() throws {
    var bytes: [UInt8] = []
    for (block, length, micros) in [(100, 4096, 1_500_000), (200, 512, 2_000_001)] as [(UInt64, UInt32, UInt64)] {
      SyntheticTraces.append(&bytes, UInt32(1).littleEndian)  // sn
      SyntheticTraces.append(&bytes, length.littleEndian)
      SyntheticTraces.append(&bytes, UInt32(1).littleEndian)  // nSG
      SyntheticTraces.append(&bytes, UInt16(0x28).littleEndian)  // cmd
      SyntheticTraces.append(&bytes, UInt16(1).littleEndian)  // ver
      SyntheticTraces.append(&bytes, block.littleEndian)
      SyntheticTraces.append(&bytes, micros.littleEndian)
    }
    let read = try Self.read(Paths.temporaryFile("t.vscsi", bytes: bytes), "vscsi")
    #expect(read == [Request(time: 1_500_000, key: 100, size: 4096), Request(time: 2_000_001, key: 200, size: 512)])
  }

  @Test func bigEndianKeysAreSigned() throws {
    var bytes32: [UInt8] = []
    SyntheticTraces.append(&bytes32, Int32(-2).bigEndian)
    SyntheticTraces.append(&bytes32, Int32(258).bigEndian)
    #expect(
      try Self.read(Paths.temporaryFile("k32", bytes: bytes32), "int32-be").map(\.key) == [UInt64(bitPattern: -2), 258])
    var bytes64: [UInt8] = []
    SyntheticTraces.append(&bytes64, Int64(1 << 40).bigEndian)
    let read = try Self.read(Paths.temporaryFile("k64", bytes: bytes64), "int64-be")
    #expect(read == [Request(key: 1 << 40, size: 1)])
  }

  @Test func emptyFilesAreEmptyTraces() throws {
    for format in ["oracle-general", "vscsi", "txt", "int32-be", "id-size"] {
      #expect(try Self.read(Paths.temporaryFile("empty", bytes: []), format).isEmpty)
    }
  }

  // MARK: - Text formats

  @Test func textSkipsMarkersBlankLinesAndCarriageReturns() throws {
    let path = Paths.temporaryFile("t.txt", text: "5\r\n*\n\n  6 \nhttp://x/a\n7")
    let read = try Self.read(path, "txt", batch: 2)
    #expect(read.map(\.key) == [5, 6, KeyHash.hash("http://x/a"), 7])
    #expect(read.allSatisfy { $0.size == 1 && $0.time == 0 })
    Self.expectError(path, "txt:key-type=int", record: 5, containing: "not an integer")
    Self.expectError(
      Paths.temporaryFile("bin.txt", bytes: [0x31, 0x0A, 0x00, 0x01, 0x0A]), "txt", record: 2,
      containing: "control byte")
  }

  @Test func idSizeReadsIdAndSize() throws {
    let read = try Self.read(Paths.temporaryFile("t.trace", text: "1 0 68\n2\t17  7454\n\n"), "id-size")
    #expect(read == [Request(key: 0, size: 68), Request(key: 17, size: 7454)])
    Self.expectError(
      Paths.temporaryFile("short.trace", text: "1 0 68\n2 17\n"), "id-size", record: 2, containing: "expected 3 fields")
    Self.expectError(
      Paths.temporaryFile("neg.trace", text: "1 0 -68\n"), "id-size", record: 1, containing: "size '-68'")
  }

  @Test func csvFindsColumnsByHeaderName() throws {
    let path = Paths.temporaryFile("t.csv", text: "version,time,op,size,lbn\n1,10,2a,512,42\n1,11.5,28,4096,abc\n")
    let read = try Self.read(path, "csv")
    #expect(
      read == [
        Request(time: 10_000_000, key: 42, size: 512), Request(time: 11_500_000, key: KeyHash.hash("abc"), size: 4096),
      ])
    let reader = try TraceSpec(parsing: "csv").open(path)
    #expect(reader.traits == TraceTraits(hasTime: true, hasSize: true))
  }

  @Test func csvWithoutHeaderNeedsAKeyColumn() throws {
    let path = Paths.temporaryFile("t.csv", text: "7;100;3\n8;200;4\n")
    Self.expectError(path, "csv", record: 1, containing: "needs key-col")
    let read = try Self.read(path, "csv:key-col=1,size-col=3,time-col=2,time-unit=ms")
    #expect(read == [Request(time: 100_000, key: 7, size: 3), Request(time: 200_000, key: 8, size: 4)])
  }

  @Test func csvHandlesQuotesTabsAndSpaces() throws {
    let quoted = Paths.temporaryFile("q.csv", text: "time,key,size,cc\n1,\"a,\"\"b\",10,\"max-age=60, public\"\n")
    #expect(try Self.read(quoted, "csv").map(\.key) == [KeyHash.hash("a,\"b")])
    let tabs = Paths.temporaryFile("t.tsv", text: "timestamp\tobj_id\tobj_size\n3\t9\t100\n")
    #expect(try Self.read(tabs, "csv") == [Request(time: 3_000_000, key: 9, size: 100)])
    let spaces = Paths.temporaryFile("s.txt", text: "1   5  100\n")
    #expect(try Self.read(spaces, "csv:delimiter=space,key-col=2,size-col=3") == [Request(key: 5, size: 100)])
  }

  @Test func csvErrorsNameTheLine() {
    let path = Paths.temporaryFile("bad.csv", text: "time,key,size\n1,2,3\n2,3\n3,4,5\n")
    Self.expectError(path, "csv", record: 3, containing: "expected at least 3 fields, found 2")
    Self.expectError(
      Paths.temporaryFile("bad2.csv", text: "time,key,size\n1,2,x\n"), "csv", record: 2, containing: "size 'x'")
    Self.expectError(
      Paths.temporaryFile("bad3.csv", text: "time,key,size\n-1,2,3\n"), "csv", record: 2, containing: "time '-1'")
    Self.expectError(
      Paths.temporaryFile("bad4.csv", text: "time,key,size\n1,\"2,3\n"), "csv", record: 2, containing: "unterminated")
    Self.expectError(
      Paths.temporaryFile("bad5.csv", text: "a,b,c\n1,2,3\n"), "csv:header=true", record: 1, containing: "no key column"
    )
  }

  @Test func smallAndLargeBatchesReadTheSame() throws {
    let requests = SyntheticTraces.requests(count: 5000, objects: 300, sizes: 1...5000)
    let path = Paths.temporaryFile("t.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))
    let small = try Self.read(path, "oracle-general", batch: 7)
    let large = try Self.read(path, "oracle-general", batch: 65536)
    #expect(small == large)
    #expect(small.map(\.key) == requests.map(\.key))
  }

  @Test func longLinesStraddlingBuffersAreReadWhole() throws {
    let key = String(repeating: "k", count: 3_000_000)
    let path = Paths.temporaryFile("long.txt", text: "1\n\(key)\n2\n")
    #expect(try Self.read(path, "txt").map(\.key) == [1, KeyHash.hash(key), 2])
  }

  // MARK: - Opening

  @Test func unreadableFilesAreClearErrors() {
    #expect {
      _ = try TraceSpec(parsing: "txt").open("/nonexistent/trace.txt")
    } throws: { error in
      (error as? TraceError)?.description == "/nonexistent/trace.txt: cannot open: No such file or directory"
    }
    #expect {
      _ = try TraceSpec(parsing: "txt").open(NSTemporaryDirectory())
    } throws: { error in
      (error as? TraceError)?.message.contains("is a directory") ?? false
    }
  }

  @Test func formatsAreFoundByNameAliasAndFileName() throws {
    #expect(try TraceFormat.named("ORACLEGENERAL").name == "oracle-general")
    #expect(TraceFormat.inferred(from: "x/cloudPhysicsIO.oracleGeneral.bin")?.name == "oracle-general")
    #expect(TraceFormat.inferred(from: "a.vscsi")?.name == "vscsi")
    #expect(TraceFormat.inferred(from: "a.CSV")?.name == "csv")
    #expect(TraceFormat.inferred(from: "a.trace") == nil)
    #expect {
      _ = try TraceFormat.named("parquet")
    } throws: { error in
      (error as? ConfigurationError)?.message.contains("known formats: oracle-general, vscsi, csv") ?? false
    }
    #expect(throws: ConfigurationError.self) { _ = try TraceSpec(parsing: "csv:colum=3") }
  }
}

/// SHARDS' fixed-size variant: the rate it settles on keeps the most objects not above the
/// bound, whatever the order of the requests.
@Suite struct FixedSizeSamplingTests {
  @Test(arguments: [1, 10, 500, 5000, 100_000])
  func theRateIsTheLargestWithAtMostTheBound(objects: Int) throws {
    let path = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path
    let requests = try TraceSpec(format: nil, inferringFrom: path).open(path).collect()
    let hashes = Set(requests.map(\.key)).map { UInt32(KeyHash.mix($0) & 0xFF_FFFF) }.sorted()
    let expected: UInt32 = hashes.count > objects ? hashes[objects] : 1 << 24
    let rate = try TraceSlice.fixedSizeRate(
      objects: objects, reader: TraceSpec(format: nil, inferringFrom: path).open(path),
      batch: RequestBatch(capacity: 1000))
    #expect(rate == Double(expected) / Double(1 << 24))
    let slice = TraceSlice(sampleRate: rate)
    let kept = Set(requests.map(\.key).filter { slice.samples($0) })
    #expect(kept.count <= objects)
    #expect(kept.count == hashes.filter { $0 < expected }.count)
  }
}
