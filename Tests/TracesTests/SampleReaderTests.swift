import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// A spatial sample is gathered into full batches and read ahead on another thread; neither
/// changes which requests arrive, in what order, or where an error is reported.
@Suite struct SampleReaderTests {
  static let requests = SyntheticTraces.requests(count: 30_000, objects: 3_000, sizes: 1...900, seed: 5)
  static let path = Paths.temporaryFile("sample.oracleGeneral.bin", bytes: SyntheticTraces.oracleGeneral(requests))

  static func read(_ slice: TraceSlice, batch: Int) throws -> [Request] {
    let reader = slice.apply(to: try TraceSpec(parsing: "oracle-general").open(path))
    var result: [Request] = []
    let buffer = RequestBatch(capacity: batch)
    while try reader.read(into: buffer) { buffer.withRequests { result.append(contentsOf: $0) } }
    #expect(TraceSlice.sourceRequests(of: reader) == Int64(slice.requestLimit.map { min($0, 30_000) } ?? 30_000))
    return result
  }

  static let cases: [(Double, Int64?, Int)] = [
    (0.3, nil, 7), (0.3, nil, 65_536), (0.02, nil, 1000), (0.02, nil, 65_536), (0.5, 12_345, 7), (0.5, 12_345, 1000),
  ]

  @Test(arguments: cases)
  func theSampleIsTheFilteredTrace(rate: Double, limit: Int64?, batch: Int) throws {
    let slice = TraceSlice(requestLimit: limit, sampleRate: rate)
    let expected = Self.requests.prefix(Int(limit ?? 30_000)).filter { slice.samples($0.key) }
    let got = try Self.read(slice, batch: batch)
    #expect(got.count == expected.count)
    #expect(got.map(\.key) == expected.map(\.key) && got.map(\.size) == expected.map(\.size))
  }

  /// Record 20,000 claims its next access is record 1: the read-ahead thread's error reaches
  /// the reader with the record's number, after the sampled requests before it.
  @Test func aMalformedRecordIsReportedThroughTheSample() throws {
    var bytes = SyntheticTraces.oracleGeneral(Self.requests)
    let offset = 19_999 * 24 + 16
    bytes.replaceSubrange(offset..<offset + 8, with: withUnsafeBytes(of: Int64(1).littleEndian, Array.init))
    let path = Paths.temporaryFile("sample-malformed.oracleGeneral.bin", bytes: bytes)
    let reader = TraceSlice(sampleRate: 0.5).apply(to: try TraceSpec(parsing: "oracle-general").open(path))
    let batch = RequestBatch(capacity: 100)
    var delivered = 0
    #expect {
      while try reader.read(into: batch) { delivered += batch.count }
    } throws: { error in
      "\(error)".contains(path) && "\(error)".contains("20000")
    }
    // What came before the bad record, less at most the batch it was being gathered into.
    let before = Self.requests.prefix(19_999).filter { TraceSlice(sampleRate: 0.5).samples($0.key) }.count
    #expect(delivered <= before && delivered >= before - 2 * 2048, "\(delivered) of \(before)")
  }

  /// Appending keeps attributes with their requests and gives attribute-less ones defaults.
  @Test func appendingCarriesAttributes() {
    let source = RequestBatch(capacity: 4)
    source.refill { buffer in
      for index in 0..<4 { buffer[index] = Request(key: UInt64(index)) }
      return 4
    }
    let attributes = source.attributesForWriting()
    for index in 0..<4 { attributes[index].ttl = Int64(index + 1) }
    let plain = RequestBatch(capacity: 4)
    plain.refill { buffer in
      buffer[0] = Request(key: 9)
      return 1
    }
    let target = RequestBatch(capacity: 3)
    #expect(target.append(from: plain, range: 0..<1) { _ in true } == 1)
    #expect(target.append(from: source, range: 0..<4) { $0.key % 2 == 1 } == 4)
    #expect((0..<target.count).map { target[$0].key } == [9, 1, 3])
    #expect((0..<target.count).map { target.attributes($0).ttl } == [-1, 2, 4])
    #expect(target.append(from: source, range: 0..<4) { _ in true } == 0, "full: nothing looked at")
  }
}
