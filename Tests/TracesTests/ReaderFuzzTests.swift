import CacheCore
import Foundation
import TestSupport
import Testing
import Traces

/// A bounded fuzz run per reader: seeded structure- and value-aware mutations of a valid file
/// (bit flips, special bytes, huge and negative numbers, truncation, duplicated and deleted
/// ranges). Every case must read to its end or stop with a `TraceError` naming the file —
/// never trap (a trap would end this test process) or hang. `CACHELAB_FUZZ_CASES` sets the
/// cases per format (default 300; `Scripts/fuzz.sh` runs many more).
@Suite struct ReaderFuzzTests {
  static let cases = Int(ProcessInfo.processInfo.environment["CACHELAB_FUZZ_CASES"] ?? "") ?? 300

  /// A valid seed file per format.
  static let seeds: [(format: String, suffix: String, bytes: [UInt8])] = {
    var oracle: [UInt8] = []
    var vscsi: [UInt8] = []
    var int32: [UInt8] = []
    var int64: [UInt8] = []
    for index in 0..<40 {
      SyntheticTraces.append(&oracle, UInt32(index))
      SyntheticTraces.append(&oracle, UInt64(index % 7))
      SyntheticTraces.append(&oracle, UInt32(100 + index))
      SyntheticTraces.append(&oracle, Int64(-1))
      SyntheticTraces.append(&vscsi, UInt32(index))
      SyntheticTraces.append(&vscsi, UInt32(4096))
      SyntheticTraces.append(&vscsi, UInt32(1))
      SyntheticTraces.append(&vscsi, UInt16(0x28))
      SyntheticTraces.append(&vscsi, UInt16(1))
      SyntheticTraces.append(&vscsi, UInt64(index % 9))
      SyntheticTraces.append(&vscsi, UInt64(index * 1000))
      int32 += withUnsafeBytes(of: Int32(index % 5).bigEndian, Array.init)
      int64 += withUnsafeBytes(of: Int64(index % 5).bigEndian, Array.init)
    }
    let lines = (0..<40).map { $0 }
    let csv = "time,key,size\n" + lines.map { "\($0),k\($0 % 6),\(100 + $0)\n" }.joined()
    let txt = lines.map { "\($0 % 6)\n" }.joined() + "*\n"
    let idSize = lines.map { "\($0) \($0 % 6) \(100 + $0)\n" }.joined()
    let cachelab =
      "time,op,key,size,cost,class,version,cache_control,expires,date,last_modified,etag,status,latency,event,ttl\n"
      + lines.map {
        "\($0).5,get,https://h/p\($0 % 6)?q=1,\(100 + $0),\(800 + $0),image,1,\"public, max-age=60\",\($0 + 90),\($0),1,\"\"\"v1\"\"\",200,0.05,,3\n"
      }.joined() + "41,event,,0,,,,,,,,,,,background,\n"
    let cachelib =
      "op_time,key,key_size,op,op_count,size,ttl\n" + lines.map { "\($0),a\($0 % 6),8,GET,2,\(100 + $0),30\n" }.joined()
    var lcs = BinaryRecords.lcsHeader(version: 3, requests: 40)
    var twr: [UInt8] = []
    var sysTwr: [UInt8] = []
    var wiki: [UInt8] = []
    var cf1: [UInt8] = []
    for index in 0..<40 {
      let key = UInt64(index % 7)
      lcs += BinaryRecords.lcsRecord(version: 3, time: UInt32(index), key: key, size: 100, ttl: 5, next: -1)
      twr += BinaryRecords.record([.u32(UInt32(index)), .u64(key), .u32(8 << 22 | 100), .u32(1 << 24 | 30)])
      sysTwr += BinaryRecords.record([
        .u32(UInt32(index)), .u64(key), .u16(8), .u32(100), .u16(1), .u16(0), .i32(30), .i64(-1),
      ])
      wiki += BinaryRecords.record([.u64(key), .u32(100), .u16(1)])
      cf1 +=
        BinaryRecords.record([.u32(UInt32(index)), .u64(key), .u64(100), .i32(30), .u32(0), .u32(0), .i64(-1)])
        + [UInt8](repeating: 0, count: 9)
    }
    let msr = lines.map {
      "\(128_166_372_003_061_629 + $0),hm,\($0 % 2),\($0 % 3 == 0 ? "Write" : "Read"),\($0 * 1000),\(512 * ($0 % 4 + 1)),5\n"
    }.joined()
    let arc = lines.map { "\($0 % 9) \($0 % 3 + 1) 0 \($0)\n" }.joined()
    let accessLog = lines.map {
      "10.0.0.\($0 % 4) - - [10/Oct/2000:13:\(10 + $0):36 -0700] \"\(["GET", "HEAD", "POST", "GET"][$0 % 4]) /p\($0 % 6)?q=1 HTTP/1.1\" \([200, 304, 201, 404][$0 % 4]) \(100 + $0) \"-\" \"curl/8\"\n"
    }.joined()
    let squid = lines.map {
      "\(1_700_000_000 + $0).\(100 + $0)    \(5 + $0) 10.0.0.1 \(["TCP_MISS", "TCP_HIT", "TCP_REFRESH_UNMODIFIED", "TCP_TUNNEL"][$0 % 4])/\([200, 200, 304, 200][$0 % 4]) \(300 + $0) \(["GET", "GET", "GET", "CONNECT"][$0 % 4]) http://h/p\($0 % 6) - HIER_DIRECT/10.0.0.2 image/png"
        // Every other line with log_mime_hdrs blocks, escaped as Squid escapes them.
        + ($0 % 2 == 0
          ? #" [Host: h\r\n] [HTTP/1.1 200 OK\r\nCache-Control: max-age=\#($0)\r\nETag: "v%5b\#($0)%5d"\r\nContent-Length: 12\r\n\r\n]"#
          : "") + "\n"
    }.joined()
    let w3c =
      "#Version: 1.0\n#Fields: date time cs-method cs(Host) cs-uri-stem cs-uri-query sc-status sc-bytes time-taken x-edge-result-type\n"
      + lines.map {
        "2019-12-04\t21:\(10 + $0):31\tGET\th.example\t/p\($0 % 6)\ta=\($0)\t200\t\(500 + $0)\t0.0\($0 % 9)\t\(["Hit", "Miss"][$0 % 2])\n"
      }.joined()
    let har =
      "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"WebInspector\", \"version\": \"1\"}, \"entries\": ["
      + lines.map {
        "{\"startedDateTime\": \"2024-01-02T03:04:\(10 + $0).5Z\", \"request\": {\"method\": \"\(["GET", "POST"][$0 % 2])\", \"url\": \"https://h/p\($0 % 6)\", \"headers\": []}, \"response\": {\"status\": \([200, 304][$0 % 2]), \"headers\": [{\"name\": \"ETag\", \"value\": \"\\\"v\($0)\\\"\"}], \"content\": {\"size\": \(100 + $0), \"text\": \"abc\\u00e9\"}, \"bodySize\": \(50 + $0)}, \"timings\": {\"wait\": 1.5, \"receive\": 0.5}}"
      }.joined(separator: ",\n") + "]}}\n"
    return [
      ("lcs", ".lcs", lcs), ("twr", ".twr", twr), ("oracle-sys-twr-ns", ".oracleSysTwrNS", sysTwr),
      ("wiki16u", ".wiki16u", wiki), ("oracle-cf1", ".bin", cf1), ("msr", ".csv", Array(msr.utf8)),
      ("arc", ".lis", Array(arc.utf8)), ("oracle-general", ".oracleGeneral.bin.zst", zstd(oracle)),
      ("oracle-general", ".oracleGeneral.bin", oracle), ("vscsi", ".vscsi", vscsi), ("csv", ".csv", Array(csv.utf8)),
      ("txt:key-type=string", ".txt", Array(txt.utf8)), ("int32-be", ".bin", int32), ("int64-be", ".bin", int64),
      ("id-size", ".txt", Array(idSize.utf8)), ("cachelab", ".cachelab.csv", Array(cachelab.utf8)),
      ("cachelib", ".csv", Array(cachelib.utf8)), ("access-log", ".log", Array(accessLog.utf8)),
      ("squid", ".log", Array(squid.utf8)), ("w3c", ".log", Array(w3c.utf8)),
      ("har", ".har", Array(har.utf8)),
    ]
  }()

  /// `bytes` compressed with zstd (a compressed stream to fuzz).
  static func zstd(_ bytes: [UInt8]) -> [UInt8] {
    let plain = Paths.temporaryFile("seed.bin", bytes: bytes)
    let packed = plain + ".zst"
    guard let writer = try? AtomicFileWriter(path: packed),
      (try? Compression.zstd.compress(file: plain, into: writer)) != nil,
      (try? writer.commit()) != nil, let data = FileManager.default.contents(atPath: packed)
    else { preconditionFailure("cannot compress a fuzz seed") }
    return Array(data)
  }

  /// Every registered format has a seed, so a new format is fuzzed automatically or fails here.
  @Test func everyFormatHasASeed() {
    let seeded = Set(Self.seeds.map { String($0.format.split(separator: ":")[0]) })
    let missing = TraceFormat.all.map(\.name).filter { !seeded.contains($0) && !Self.coveredByFamily.contains($0) }
    #expect(missing.isEmpty, "formats without a fuzz seed: \(missing)")
  }

  /// Formats read by the same layout type as a seeded one (FieldRecordLayout, BigEndianKeyLayout).
  static let coveredByFamily: Set<String> = [
    "twr-ns", "oracle-sim-twr-ns", "oracle-general-op-ns", "oracle-akamai", "oracle-wiki16u", "oracle-wiki19u",
    "wiki19u", "wiki19t",
  ]

  static let specials: [[UInt8]] = [
    [0], [0xFF], Array("-".utf8), Array("9".utf8), Array(",".utf8), Array("\n".utf8), Array("\"".utf8), [0x1B],
    Array("99999999999999999999999".utf8), Array("-1".utf8), Array("1e300".utf8), Array("9223372036854775807".utf8),
    Array("nan".utf8), Array("\r\n".utf8), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
    Array("2147483647".utf8), Array("1000001".utf8), [0xC2, 0x9B], Array("\r".utf8),
  ]

  /// One mutation of `bytes` drawn from `random`.
  static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var result = bytes
    for _ in 0...random.next(below: 3) {
      guard !result.isEmpty else { break }
      let at = random.next(below: result.count)
      switch random.next(below: 9) {
      case 0: result[at] ^= UInt8(1 << random.next(below: 8))
      case 1: result.replaceSubrange(at..<min(result.count, at + 1), with: specials[random.next(below: specials.count)])
      case 2: result.insert(contentsOf: specials[random.next(below: specials.count)], at: at)
      case 3: result.removeSubrange(at..<min(result.count, at + 1 + random.next(below: 16)))
      case 4: result = Array(result[..<at])
      case 5: result.insert(contentsOf: result[at..<min(result.count, at + 1 + random.next(below: 64))], at: at)
      // Classic Mac line ends throughout.
      case 6: result = result.map { $0 == 0x0A ? 0x0D : $0 }
      // Lines in reverse: time running backwards (a binary file gets its chunks swapped).
      case 7:
        result = Array(
          result.split(separator: 0x0A, omittingEmptySubsequences: false).reversed().joined(separator: [0x0A]))
      default: result[at] = UInt8(truncatingIfNeeded: random.next())
      }
    }
    return result
  }

  @Test(arguments: ReaderFuzzTests.seeds.indices)
  func mutatedInputReadsFullyOrFailsWithItsPath(seedIndex: Int) throws {
    let seed = Self.seeds[seedIndex]
    let format = seed.format + seed.suffix
    var random = SplitMix64(seed: KeyHash.hash(format))
    let folder = Paths.temporaryDirectory("fuzz")
    var failures = 0
    var full = 0
    for number in 0..<Self.cases {
      let path = folder.appendingPathComponent("case\(number)\(seed.suffix)").path
      FileManager.default.createFile(atPath: path, contents: Data(Self.mutate(seed.bytes, &random)))
      do {
        let reader = try TraceSpec(parsing: seed.format).open(path)
        let batch = RequestBatch(capacity: 7)
        var count: Int64 = 0
        while try reader.read(into: batch) { count += Int64(batch.count) }
        #expect(count == reader.requestsRead)
        full += 1
      } catch let error as TraceError {
        #expect(error.path == path, "\(error)")
        #expect(!error.description.contains("\u{1B}"), "control characters are escaped: \(error)")
        failures += 1
      }
      unlink(path)
    }
    #expect(full + failures == Self.cases)
    print("fuzz \(format): \(Self.cases) cases, \(full) read fully, \(failures) clean errors, 0 crashes")
  }
}
