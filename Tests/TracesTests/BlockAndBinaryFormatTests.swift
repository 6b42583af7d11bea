import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// The formats of public trace collections: lcs (every version), Twitter, Wikimedia and other
/// libCacheSim binary layouts, SNIA MSR block CSV and ARC `.lis`, on files built from the
/// documented layouts.
@Suite struct BlockAndBinaryFormatTests {
  static func read(_ path: String, _ format: String?) throws -> (requests: [Request], ttls: [Int64]) {
    let spec = try TraceSpec(format: format, inferringFrom: path)
    let reader = try spec.open(path)
    var requests: [Request] = []
    var ttls: [Int64] = []
    let batch = RequestBatch(capacity: 3)
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        requests.append(batch[index])
        ttls.append(batch.attributes(index).ttl)
      }
    }
    return (requests, ttls)
  }

  @Test(arguments: 1...8)
  func lcsEveryVersion(version: Int) throws {
    var bytes = BinaryRecords.lcsHeader(version: UInt64(version), requests: 3)
    bytes += BinaryRecords.lcsRecord(version: version, time: 10, key: 7, size: 4096, ttl: 60, next: 3)
    bytes += BinaryRecords.lcsRecord(version: version, time: 11, key: 8, size: 100, ttl: 0, next: .max)
    bytes += BinaryRecords.lcsRecord(version: version, time: 12, key: 7, size: 4096, ttl: 60, next: -1)
    let path = Paths.temporaryFile("v\(version).lcs", bytes: bytes)
    let (requests, ttls) = try Self.read(path, nil)
    #expect(requests.map(\.key) == [7, 8, 7])
    #expect(requests.map(\.size) == [4096, 100, 4096])
    #expect(requests.map(\.time) == [10_000_000, 11_000_000, 12_000_000])
    #expect(requests.map(\.nextAccess) == [3, Request.never, Request.never])
    #expect(ttls == (version >= 3 ? [60_000_000, -1, 60_000_000] : [-1, -1, -1]))
    // Content alone identifies lcs too.
    let renamed = Paths.temporaryFile("trace", bytes: bytes)
    #expect(try TraceSpec(format: nil, inferringFrom: renamed).format.name == "lcs")
  }

  @Test func lcsHeaderProblemsAreReported() throws {
    var noEnd = BinaryRecords.lcsHeader(version: 1, requests: 0)
    noEnd[8184] = 0
    var badVersion = BinaryRecords.lcsHeader(version: 9, requests: 0)
    badVersion[8] = 9
    let cases: [([UInt8], String)] = [
      (noEnd, "end magic"), (badVersion, "version 9"), (Array(noEnd.prefix(100)), "inside its 8192-byte header"),
      (BinaryRecords.lcsHeader(version: 3, requests: 1) + [1, 2, 3], "truncated record"),
    ]
    for (bytes, message) in cases {
      let path = Paths.temporaryFile("bad.lcs", bytes: bytes)
      #expect {
        _ = try Self.read(path, "lcs")
      } throws: { error in
        (error as? TraceError)?.message.contains(message) == true
      }
    }
  }

  @Test func twitterRecordsUnpackKeyValueSizesAndTTL() throws {
    let twr = BinaryRecords.record([.u32(5), .u64(42), .u32(10 << 22 | 1000), .u32(3 << 24 | 3600)])
    let (requests, ttls) = try Self.read(Paths.temporaryFile("c.twr", bytes: twr + twr), nil)
    #expect(requests.map(\.size) == [1010, 1010] && requests[0].key == 42 && requests[0].time == 5_000_000)
    #expect(ttls == [3_600_000_000, 3_600_000_000])
    let system = BinaryRecords.record([
      .u32(9), .u64(1), .u16(20), .u32(300), .u16(1), .u16(4), .i32(86400), .i64(-1),
    ])
    let (sys, sysTTL) = try Self.read(Paths.temporaryFile("c.oracleSysTwrNS", bytes: system), nil)
    #expect(sys.map(\.size) == [320] && sys[0].nextAccess == Request.never && sysTTL == [86_400_000_000])
  }

  @Test func wikiAndOtherOracleLayouts() throws {
    let wiki = BinaryRecords.record([.u64(77), .u32(2048), .u16(3)])
    let (w, _) = try Self.read(Paths.temporaryFile("t.wiki16u", bytes: wiki), nil)
    #expect(w == [Request(time: 0, key: 77, size: 2048)])
    let signExtended = UInt64(0xFFFF_FFFF_0000_0000) + 512
    let cf1 =
      BinaryRecords.record([.u32(1), .u64(5), .u64(signExtended), .i32(-1), .u32(0), .u32(0), .i64(-1)])
      + [UInt8](repeating: 0, count: 9)
    let (c, cTTL) = try Self.read(Paths.temporaryFile("t.bin", bytes: cf1), "oracle-cf1")
    #expect(c.map(\.size) == [512] && cTTL == [-1])
  }

  @Test func msrRowsSplitIntoBlocksAndFilterOperations() throws {
    let rows = """
      128166372003061629,hm,0,Read,3652607488,4096,5632
      128166372016382155,hm,0,Write,1200,8192,1
      128166372016382156,hm,1,Read,0,512,1
      128166372016382157,hm,1,Read,0,0,1

      """
    let path = Paths.temporaryFile("hm_0.csv", text: rows)
    let (all, _) = try Self.read(path, nil)
    // 3652607488 is 3584 bytes into block 891749: two blocks; 1200 + 8192 bytes: blocks 0...2.
    #expect(all.count == 6 && all.allSatisfy { $0.size == 4096 })
    #expect(all[1].key == all[0].key &+ 1 && all[3].key == all[2].key &+ 1 && all[4].key == all[3].key &+ 1)
    #expect(all[5].key != all[2].key, "another disk has its own blocks")
    #expect(all[0].time == 12_816_637_200_306_162)
    #expect(try Self.read(path, "msr:ops=read").requests.count == 3)
    #expect(try Self.read(path, "msr:ops=write").requests.count == 3)
    #expect(try Self.read(path, "msr:block-size=512").requests.count == 26)
  }

  @Test func arcLinesExpandToBlockRanges() throws {
    let path = Paths.temporaryFile("P1.lis", text: "100 3 0 1\n7 1 0 2\n\n101 0 0 3\n")
    let (requests, _) = try Self.read(path, nil)
    #expect(requests.map(\.key) == [100, 101, 102, 7])
    #expect(requests.allSatisfy { $0.size == 1 && $0.time == 0 })
    let bad = Paths.temporaryFile("bad.lis", text: "1 2 0 1\nx 2 0 2\n")
    #expect {
      _ = try Self.read(bad, nil)
    } throws: { error in
      (error as? TraceError)?.description.hasPrefix("\(bad):2: ") == true
    }
  }
}
