import CacheCore
import Foundation
import TestSupport
import Testing
import Traces
import Workloads

/// The registered generators (`gen NAME`, `--trace gen:NAME:...`): reproducible, and each
/// trace has the shape its documentation promises.
@Suite struct SyntheticGeneratorTests {
  /// Generates `spec` with `seed` and reads it back.
  static func requests(_ spec: String, seed: UInt64 = 1) throws -> [Request] {
    let synthetic = try SyntheticTraceSpec(parsing: spec)
    let path = Paths.temporaryDirectory().appendingPathComponent("t" + synthetic.fileSuffix).path
    try synthetic.generate(seed: seed, to: path)
    let reader = try TraceSpec(parsing: synthetic.format).open(path)
    let batch = RequestBatch()
    var result: [Request] = []
    while try reader.read(into: batch) { batch.withRequests { result += $0 } }
    return result
  }

  static let demo = Paths.packageRoot.appendingPathComponent("Traces/zipf-demo.oracleGeneral.bin").path

  /// A small specification of every registered generator.
  static let examples: [String: String] = [
    "zipf": "gen:zipf:objects=300,requests=3000,alpha=0.9",
    "uniform": "gen:uniform:objects=300,requests=3000",
    "loop": "gen:loop:objects=300,requests=3000",
    "scan": "gen:scan:requests=3000",
    "shift": "gen:shift:objects=300,requests=3000,at=0.5",
    "mix": "gen:mix:requests=3000,parts=0.5*zipf(objects=300)+0.5*loop(objects=50)",
    "events": "gen:events:trace=\(demo),session=1m,idle=10m",
  ]

  @Test(arguments: GeneratorRegistry.all.map(\.descriptor.name))
  func everyGeneratorIsReproducibleAndSeeded(name: String) throws {
    let spec = try #require(Self.examples[name], "add an example for the new generator '\(name)'")
    let first = try Self.requests(spec, seed: 4)
    #expect(first.count >= 3000)
    #expect(try Self.requests(spec, seed: 4) == first, "the same seed writes the same trace")
    if name != "loop" && name != "scan" {
      #expect(try Self.requests(spec, seed: 5) != first, "another seed writes another trace")
    }
    #expect(zip(first, first.dropFirst()).allSatisfy { $0.time <= $1.time }, "times never go back")
    let example = try GeneratorRegistry.entry(named: name).descriptor.example
    _ = try SyntheticTraceSpec(
      parsing: example.replacingOccurrences(of: "Traces/", with: Paths.packageRoot.path + "/Traces/"))
  }

  @Test func theRegistryZipfIsTheGenZipfTrace() throws {
    let path = Paths.temporaryDirectory().appendingPathComponent("z.oracleGeneral.bin").path
    let writer = try OracleGeneralWriter(path: path, computeNextAccess: true)
    try ZipfWorkload(objects: 300, requests: 3000, alpha: 0.9, seed: 4).generate(into: writer)
    try writer.commit()
    let reader = try TraceSpec(parsing: "oracle-general").open(path)
    let batch = RequestBatch()
    var direct: [Request] = []
    while try reader.read(into: batch) { batch.withRequests { direct += $0 } }
    #expect(try Self.requests("gen:zipf:objects=300,requests=3000,alpha=0.9", seed: 4) == direct)
  }

  @Test func uniformRequestsEveryObjectEquallyOften() throws {
    let requests = try Self.requests("gen:uniform:objects=1000,requests=60000")
    var counts: [UInt64: Int] = [:]
    for request in requests { counts[request.key, default: 0] += 1 }
    #expect(counts.count == 1000)
    // 60 expected per object; 5 standard deviations (√60 ≈ 7.7) either side.
    #expect(counts.values.allSatisfy { (22...98).contains($0) }, "\(counts.values.min()!)...\(counts.values.max()!)")
  }

  @Test func loopCyclesAndScanNeverRepeats() throws {
    let loop = try Self.requests("gen:loop:objects=7,requests=30")
    #expect((7..<30).allSatisfy { loop[$0].key == loop[$0 - 7].key && loop[$0].size == loop[$0 - 7].size })
    #expect(Set(loop.map(\.key)).count == 7)
    let scan = try Self.requests("gen:scan:requests=5000")
    #expect(Set(scan.map(\.key)).count == 5000)
  }

  @Test func shiftReplacesTheWorkingSetByTheOverlap() throws {
    for (overlap, shared) in [(0.0, 0.0...0.0), (0.5, 0.3...0.7)] {
      let requests = try Self.requests("gen:shift:objects=200,requests=40000,alpha=0.5,at=0.5,overlap=\(overlap)")
      let before = Set(requests[..<20000].map(\.key))
      let after = Set(requests[20000...].map(\.key))
      let fraction = Double(before.intersection(after).count) / Double(after.count)
      #expect(shared.contains(fraction), "overlap \(overlap): \(fraction) of the objects stay")
    }
    let timed = try Self.requests("gen:shift:objects=100,requests=20000,rate=100,at=100s")
    let boundary = try #require(timed.firstIndex { $0.time >= 100_000_000 })
    #expect(Set(timed[..<boundary].map(\.key)).isDisjoint(with: timed[boundary...].map(\.key)))
  }

  @Test func mixDrawsPartsByWeightFromDisjointObjects() throws {
    let requests = try Self.requests("gen:mix:requests=20000,parts=3*loop(objects=10)+1*scan")
    var counts: [UInt64: Int] = [:]
    for request in requests { counts[request.key, default: 0] += 1 }
    let scanned = counts.values.filter { $0 == 1 }.count
    #expect(counts.count == 10 + scanned, "the loop's 10 objects plus one object per scan request")
    #expect(abs(Double(scanned) / 20000 - 0.25) < 0.015, "\(scanned) scan requests")
    #expect(throws: ConfigurationError.self) { try SyntheticTraceSpec(parsing: "gen:mix:parts=1*events") }
    #expect(throws: ConfigurationError.self) { try SyntheticTraceSpec(parsing: "gen:mix:parts=zipf") }
  }

  @Test func eventsKeepEveryRequestAndAlternateSessions() throws {
    let input = try Self.requests("gen:zipf:objects=300,requests=20000,rate=2")
    let path = Paths.temporaryDirectory().appendingPathComponent("in.oracleGeneral.bin").path
    try SyntheticTraceSpec(parsing: "gen:zipf:objects=300,requests=20000,rate=2").generate(seed: 1, to: path)
    let synthetic = try SyntheticTraceSpec(parsing: "gen:events:trace=\(path),session=10m,idle=1h,terminate=0.5")
    let output = Paths.temporaryDirectory().appendingPathComponent("e.cachelab.csv").path
    try synthetic.generate(seed: 9, to: output)
    let reader = try TraceSpec(parsing: "cachelab").open(output)
    let batch = RequestBatch()
    var gets: [Request] = []
    var events: [LifecycleEvent] = []
    var shift: Int64 = 0
    while try reader.read(into: batch) {
      for index in 0..<batch.count {
        if batch[index].operation == .event {
          events.append(batch.attributes(index).event)
        } else {
          let original = input[gets.count]
          #expect(batch[index].key == original.key && batch[index].size == original.size)
          #expect(batch[index].time - original.time >= shift, "idle time only ever adds")
          shift = batch[index].time - original.time
          gets.append(batch[index])
        }
      }
    }
    #expect(gets.count == input.count)
    #expect(shift > 0, "idle periods were inserted")
    let sessions = events.filter { $0 != .memoryWarning }
    #expect(sessions.count >= 6, "about 5.5 h of use in 10-minute sessions")
    var expectingBackground = true
    var terminated = false
    for event in sessions {
      switch event {
      case .background:
        #expect(expectingBackground)
        expectingBackground = false
        terminated = false
      case .terminate:
        #expect(!expectingBackground)
        terminated = true
      case .foreground:
        #expect(!expectingBackground && !terminated)
        expectingBackground = true
      case .launch:
        #expect(!expectingBackground && terminated)
        expectingBackground = true
      default: Issue.record("unexpected \(event)")
      }
    }
    #expect(events.contains(.terminate) && events.contains(.memoryWarning))
  }

  @Test func badSpecificationsSayWhatIsWrong() throws {
    for (spec, message) in [
      ("gen:unifrom:objects=3", "did you mean 'uniform'"), ("gen:loop:objects=0", "objects=0 is invalid"),
      ("gen:shift:at=1.5", "at=1.5 must be"), ("gen:events:session=1m", "trace=PATH"),
      ("gen:scan:requests=1000000000000,rate=1", "10 years"),
    ] {
      do {
        _ = try SyntheticTraceSpec(parsing: spec)
        Issue.record("\(spec) was accepted")
      } catch {
        #expect("\(error)".contains(message), "\(spec): \(error)")
      }
    }
  }
}
