import CacheCore
import Engine
import Policies
import TestSupport
import Testing

/// An engine that serves rows without attributes through its memory policy's own loop
/// (``CacheEngine/throughPolicyLoop``) counts exactly what the same engine counts on its
/// general path, row by row: every counter, the latency histogram, and what the tier holds.
/// The rows mix `get`s, `put`s of held and absent objects, `delete`s, sizes that change and
/// objects larger than the cache, at capacities in bytes and in objects. Registry-driven over every policy and admission policy
/// (policies without stable slots keep the general path, and so do tiers whose admission
/// policy learns from every request: the two paths would differ once a hit's size changes,
/// AdaptSize observing it).
@Suite struct PolicyLoopEquivalenceTests {
  static let policies = PolicyRegistry.all.map(\.descriptor.name)
  static let admissions = AdmissionRegistry.all.map(\.descriptor.name)

  /// Gets with a put every 7th row (a new size every 14th), a delete every 13th, and a get
  /// of a changed size every 17th.
  static let rows: [Request] = {
    var rows = SyntheticTraces.requests(count: 3000, objects: 120, sizes: 1...400, seed: 57)
    for index in rows.indices {
      if index % 7 == 3 {
        rows[index].operation = .put
        if index % 14 == 3 { rows[index].size += 37 }
      } else if index % 13 == 5 {
        rows[index].operation = .delete
      } else if index % 17 == 9 {
        rows[index].size = rows[index].size * 2 + 1
      }
    }
    return rows
  }()

  @Test(arguments: policies)
  func policyLoopCountsAsTheGeneralPath(name: String) throws {
    let largest = Self.rows.map(\.size).max() ?? 1
    for capacity in [largest / 2, 3 * largest, 15 * largest] {
      try compare(tier: "\(name):\(capacity)")
    }
    for objects in [12, 40] {
      try compare(tier: "\(name):\(objects)objects")
    }
  }

  @Test(arguments: admissions)
  func policyLoopCountsAsTheGeneralPathWithAdmission(name: String) throws {
    let largest = Self.rows.map(\.size).max() ?? 1
    // AdaptSize reconfigures from what it observed (puts included) every 200 requests here.
    let admission = name == "adaptsize" ? "adaptsize:reconf-interval=200" : name
    try compare(tier: "lru:\(4 * largest),admission=\(admission)")
  }

  @Test func onlyMemoryOnlyGenericConfigurationsServeThroughThePolicyLoop() throws {
    let memory = try TierConfiguration(parsing: "lru:1MiB")
    #expect(CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "m", memory: memory)))
    #expect(!CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "md", memory: memory, disk: memory)))
    #expect(!CacheEngine.servesThroughPolicyLoop(try PresetSpec(parsing: "sdwebimage").configuration))
    #expect(!CacheEngine.servesThroughPolicyLoop(try PresetSpec(parsing: "nscache-linux").configuration))
    let learning = try TierConfiguration(parsing: "lru:1MiB,admission=adaptsize")
    #expect(!CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "l", memory: learning)))
    let bloom = try TierConfiguration(parsing: "lru:1MiB,admission=bloom-filter")
    #expect(CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "b", memory: bloom)))
    let unstable = try TierConfiguration(parsing: "arc:1MiB")
    #expect(!CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "a", memory: unstable)))
    let objects = try TierConfiguration(parsing: "lru:100objects")
    #expect(CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "o", memory: objects)))
    let blocks = TierConfiguration(policy: try PolicySpec(parsing: "lru"), capacity: 1 << 20, blockSize: 4096)
    #expect(!CacheEngine.servesThroughPolicyLoop(EngineConfiguration(name: "k", memory: blocks)))
    // Built for rows with attributes, even a memory-only engine takes the general path.
    let general = try CacheEngine(EngineConfiguration(name: "m", memory: memory), seed: 1)
    #expect(!general.throughPolicyLoop)
  }

  @Test func rowWithAttributesIsRefusedByAnEngineBuiltForRowsWithout() throws {
    let memory = try TierConfiguration(parsing: "lru:1MiB")
    let engine = try CacheEngine(EngineConfiguration(name: "m", memory: memory), seed: 1, rowsCarryAttributes: false)
    #expect(engine.throughPolicyLoop)
    var attributes = RequestAttributes()
    attributes.version = 3
    #expect(throws: EngineError.self) { try engine.process(Request(time: 0, key: 1, size: 10), attributes) }
  }

  /// Replays ``rows`` through a memory-only engine of `tier` both ways (the policy loop in
  /// uneven ranges, the general path row by row) and compares everything they count.
  func compare(tier: String) throws {
    let configuration = EngineConfiguration(name: "memory", memory: try TierConfiguration(parsing: tier))
    let general = try CacheEngine(configuration, seed: 5)
    let looped = try CacheEngine(configuration, seed: 5, rowsCarryAttributes: false)
    #expect(!general.throughPolicyLoop)
    // Policies without stable slots, and tiers whose admission policy learns from every
    // request, keep the general path (and so trivially agree).
    let policy = try #require(configuration.memory?.policy)
    let learns = policy.admission?.entry.observesRequests ?? false
    #expect(looped.throughPolicyLoop == (policy.entry.slotsAreStable && !learns))
    for request in Self.rows { try general.process(request, RequestAttributes()) }
    try Self.rows.withUnsafeBufferPointer { (rows) throws(EngineError) in
      var start = 0
      var step = 1
      while start < rows.count {
        let end = min(rows.count, start + step)
        try looped.replay(rows, range: start..<end)
        start = end
        step = step * 3 + 1
      }
    }
    let (a, b) = (general.stats, looped.stats)
    let fields: [(String, (EngineStats) -> Int64)] = [
      ("requests", \.requests), ("requestBytes", \.requestBytes), ("memoryHits", \.memoryHits),
      ("hitBytes", \.hitBytes), ("originFetches", \.originFetches), ("originBytes", \.originBytes),
      ("memoryEvictions", \.memoryEvictions), ("expired", \.expired), ("staleServed", \.staleServed),
      ("purged", \.purged), ("diskHits", \.diskHits), ("originErrors", \.originErrors),
    ]
    for (field, value) in fields {
      #expect(value(a) == value(b), "\(tier): \(field) \(value(a)) on the general path, \(value(b)) in the policy loop")
    }
    #expect(a.latency.totalCount == b.latency.totalCount, "\(tier): latency count")
    #expect(a.latency.mean == b.latency.mean, "\(tier): latency mean")
    for percentile in [1.0, 50, 90, 99, 100] {
      #expect(
        a.latency.valueAtPercentile(percentile) == b.latency.valueAtPercentile(percentile),
        "\(tier): latency p\(percentile)")
    }
    #expect(general.memoryObjects == looped.memoryObjects, "\(tier): objects held")
    #expect(general.memoryOccupied == looped.memoryOccupied, "\(tier): bytes held")
    try looped.checkInvariants()
    #expect(a.requests > 0)
    // Where the two paths differ, the rows exercise hits (some multi-queue policies hold too
    // few objects at 12 to hit at all, on the general path both times).
    if looped.throughPolicyLoop { #expect(a.memoryHits > 0, "\(tier): the rows exercise hits") }
  }
}
