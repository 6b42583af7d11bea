import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

@Suite struct WriterTests {
  @Test func oracleWriterComputesNextAccessIndices() throws {
    let requests = SyntheticTraces.requests(count: 200_000, objects: 5000, sizes: 1...100_000)
    let path = Paths.temporaryDirectory().appendingPathComponent("w.oracleGeneral.bin").path
    let writer = try OracleGeneralWriter(path: path, computeNextAccess: true)
    for request in requests { try writer.write(request) }
    try writer.commit()
    // Byte-identical to the independent encoder used by the tests.
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect([UInt8](written) == SyntheticTraces.oracleGeneral(requests))
  }

  @Test func csvWriterRoundTrips() throws {
    let requests = [
      Request(time: 1_250_000, key: 7, size: 100), Request(time: 2_000_000, key: UInt64.max, size: 0),
      Request(time: 3_000_001, key: 0, size: 5),
    ]
    let path = Paths.temporaryDirectory().appendingPathComponent("w.csv").path
    let writer = try CSVTraceWriter(path: path)
    for request in requests { try writer.write(request) }
    try writer.commit()
    #expect(
      try String(contentsOfFile: path, encoding: .utf8).hasPrefix(
        "time,key,size\n1.25,7,100\n2,18446744073709551615,0\n3.000001,0,5\n"))
    let reader = try TraceSpec(parsing: "csv").open(path)
    #expect(try reader.collect() == requests)
  }

  @Test func oracleWriterRejectsValuesThatDoNotFit() throws {
    let writer = try OracleGeneralWriter(
      path: Paths.temporaryDirectory().appendingPathComponent("x.bin").path, computeNextAccess: false)
    #expect(throws: FileError.self) { try writer.write(Request(key: 1, size: 1 << 33)) }
  }
}
