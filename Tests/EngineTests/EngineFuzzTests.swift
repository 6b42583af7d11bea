import CacheCore
import Engine
import Foundation
import TestSupport
import Testing
import Traces

/// Extreme but valid rich traces through every preset and every expiry rule: seeded rows
/// with boundary values (times near 2^62 µs, durations near 2^61 µs, ages of 2^31 s, sizes and
/// costs of 2^48, zero sizes, odd statuses and headers) must never trap; every engine keeps
/// its invariants. `CACHELAB_FUZZ_CASES` scales the run (default 300 rows per case).
@Suite struct EngineFuzzTests {
  static let rows = Int(ProcessInfo.processInfo.environment["CACHELAB_FUZZ_CASES"] ?? "") ?? 300

  static func trace(seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    func pick<T>(_ values: [T]) -> T { values[random.next(below: values.count)] }
    let times = ["0", "1", "4611686018427.387", "4611686018427", "86400", "1e9"]
    let sizes = ["0", "1", "281474976710656", "4096", "100"]
    let controls = [
      "", "max-age=0", "max-age=2147483648", "no-cache", "no-store", "s-maxage=5, max-age=x",
      "stale-while-revalidate=2147483647, max-age=1", "stale-if-error=99999999999", "must-revalidate, max-age=10",
      "public", "private, immutable",
    ]
    var text =
      "time,op,key,size,cost,ttl,class,version,cache_control,expires,date,last_modified,age,etag,status,latency,event,vary\n"
    var clock = 0.0
    for _ in 0..<rows {
      let time = random.next(below: 10) == 0 ? pick(times) : String(clock)
      clock += Double(random.next(below: 100))
      let op = pick(["get", "get", "get", "put", "delete", "origin", "event"])
      let key = pick(["https://h/a", "http://h/b?x", "http://u:p@h/c", "7", "8", "ftp://x/y", "http://[::1]/z"])
      let event = op == "event" ? pick(["memory_warning", "background", "launch", "terminate", "foreground"]) : ""
      text +=
        [
          time, op, key, pick(sizes), pick(["", "0", "281474976710656", "500"]),
          pick(["", "0", "2305843009213.693", "1"]), pick(["image", "data", "voice"]), pick(["1", "2", "-5", ""]),
          "\"\(pick(controls))\"", pick(["", "0", "4611686018427", "garbage"]), pick(["", "0", "4611686018427"]),
          pick(["", "0", "4611686018427"]), pick(["", "0", "2147483648", "99999999999999"]),
          pick(["", "\"\"\"v1\"\"\"", "\"W/\"\"v2\"\"\""]),
          pick(["200", "304", "404", "503", "0", "206"]), pick(["", "0", "4611686018427"]), event, pick(["", "*"]),
        ].joined(separator: ",") + "\n"
    }
    return text
  }

  static let configurations: [EngineConfiguration] = {
    var result = EnginePreset.all.map { preset in
      // Default parameters always validate.
      (try? PresetSpec(parsing: preset.name))!.configuration
    }
    for expiry in ["none", "ttl:300s,sliding", "http", "http:shared", "mknetworkkit", "urlcache-linux"] {
      // Fixed, valid names.
      guard let model = try? ExpiryModel(parsing: expiry), let memory = try? TierConfiguration(parsing: "lru:1MiB"),
        let disk = try? TierConfiguration(parsing: "s3fifo:8MiB")
      else { continue }
      var configuration = EngineConfiguration(name: "custom", memory: memory, disk: disk)
      configuration.memory?.expiry = model
      configuration.disk?.expiry = model
      result.append(configuration)
    }
    return result
  }()

  @Test(arguments: 1...8)
  func extremeRowsNeverTrapAnyEngine(seed: Int) throws {
    let path = Paths.temporaryFile("fuzz\(seed).cachelab.csv", text: Self.trace(seed: UInt64(seed)))
    var rows: [(Request, RequestAttributes)] = []
    do {
      let reader = try TraceSpec(parsing: "cachelab").open(path)
      let batch = RequestBatch(capacity: 64)
      while try reader.read(into: batch) {
        for index in 0..<batch.count { rows.append((batch[index], batch.attributes(index))) }
      }
    } catch let error as TraceError {
      // Values beyond the documented limits stop the read cleanly; replay what came before.
      #expect(error.path == path)
    }
    #expect(Self.configurations.count == EnginePreset.all.count + 6)
    #expect(rows.count >= Self.rows / 2, "the seeded rows mostly parse (\(rows.count) of \(Self.rows))")
    for configuration in Self.configurations {
      let engine = try CacheEngine(configuration, seed: UInt64(seed))
      for (request, attributes) in rows { try engine.process(request, attributes) }
      try engine.checkInvariants()
      #expect(engine.stats.requests <= Int64(rows.count))
    }
  }
}
