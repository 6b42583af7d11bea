import CacheCore
import Engine
import Policies
import TestSupport
import Testing

/// An engine built as a plain policy run (``EngineConfiguration/policyRun(_:timeToLive:)``)
/// counts exactly what its policy's own simulation counts on the same rows, whether it is
/// given whole batches, uneven ranges or one row at a time, with and without `--ttl`.
/// Registry-driven over every policy and admission policy.
@Suite struct PolicyRunTests {
  static let policies = PolicyRegistry.all.map(\.descriptor.name)
  static let admissions = AdmissionRegistry.all.map(\.descriptor.name)
  /// The equivalence test's mix of gets, puts, deletes and changing sizes, 1 ms apart.
  static let rows: [Request] = PolicyLoopEquivalenceTests.rows.enumerated().map { index, row in
    var row = row
    row.time = Int64(index) * 1000
    return row
  }

  /// `rows` in a batch; with `ttl`, every fifth row carries a 50 ms TTL of its own.
  static func batch(ttl: Bool) -> RequestBatch {
    let batch = RequestBatch(capacity: rows.count)
    batch.refill { buffer in
      for (index, row) in rows.enumerated() { buffer[index] = row }
      return rows.count
    }
    if ttl {
      let attributes = batch.attributesForWriting()
      for index in rows.indices where index % 5 == 0 { attributes[index].ttl = 50_000 }
    }
    return batch
  }

  /// What a policy run reports that a plain simulation counts too.
  static func counts(_ stats: EngineStats) -> [Int64] {
    [
      stats.requests, stats.requestBytes, stats.misses, stats.missBytes, stats.memoryEvictions, stats.rejected,
      stats.expired, stats.declined,
    ]
  }

  static func counts(_ counters: MissCounters) -> [Int64] {
    [
      counters.requests, counters.requestBytes, counters.misses, counters.missBytes, counters.evictions,
      counters.rejected, counters.expired, counters.declined,
    ]
  }

  /// Replays `rows` through the policy's simulation, a policy-run engine in uneven ranges and
  /// another one row at a time, and checks all three count alike.
  func compare(_ policy: String, capacity: Int64, timeToLive: TimeToLive? = nil) throws {
    try compare(try PolicySpec(parsing: policy), capacity: capacity, timeToLive: timeToLive)
  }

  func compare(_ spec: PolicySpec, capacity: Int64, timeToLive: TimeToLive? = nil) throws {
    let policy = spec.label
    let context = PolicyContext(seed: 9)
    let simulation = try spec.entry.makeSimulation(
      capacity: capacity, parameters: spec.parameters, context: context, timeToLive: timeToLive,
      admission: try spec.admission?.make(capacity: capacity, context: context))
    let configuration = EngineConfiguration.policyRun(
      TierConfiguration(policy: spec, capacity: capacity), timeToLive: timeToLive)
    let batched = try CacheEngine(configuration, seed: 9, rowsCarryAttributes: timeToLive != nil)
    let single = try CacheEngine(configuration, seed: 9, rowsCarryAttributes: timeToLive != nil)
    #expect(batched.isPolicyRun && !batched.throughPolicyLoop)
    let batch = Self.batch(ttl: timeToLive != nil)
    simulation.replay(batch, range: 0..<batch.count)
    for range in [0..<700, 700..<701, 701..<Self.rows.count] { try batched.replay(batch, range: range) }
    for index in 0..<batch.count { try single.process(batch[index], batch.attributes(index)) }
    if timeToLive == nil {
      // Rows given as a buffer, as a memory-only engine takes them.
      let buffered = try CacheEngine(configuration, seed: 9, rowsCarryAttributes: false)
      try batch.withRequests { (rows) throws(EngineError) in
        for range in [0..<1500, 1500..<rows.count] { try buffered.replay(rows, range: range) }
      }
      #expect(Self.counts(buffered.stats) == Self.counts(simulation.counters), "\(policy), from a buffer")
    }

    let expected = Self.counts(simulation.counters)
    #expect(Self.counts(batched.stats) == expected, "\(policy) @ \(capacity)")
    #expect(Self.counts(single.stats) == expected, "\(policy) @ \(capacity), row by row")
    #expect(batched.missCounts == (simulation.counters.misses, simulation.counters.missBytes))
    #expect(batched.memoryObjects == simulation.objectCount && single.memoryObjects == simulation.objectCount)
    #expect(batched.stats.hits == simulation.counters.requests - simulation.counters.misses)
    #expect(batched.structureBytes == Int64(simulation.storageBytes))
    try batched.checkInvariants()
    batched.resetStats()
    #expect(Self.counts(batched.stats) == Self.counts(MissCounters()))
  }

  @Test(arguments: policies)
  func aPolicyRunCountsAsItsPolicy(name: String) throws {
    let largest = Self.rows.map(\.size).max() ?? 1
    for capacity in [largest / 2, 3 * largest, 15 * largest] {
      try compare(name, capacity: capacity)
    }
  }

  @Test(arguments: ["lru", "fifo", "s3fifo", "arc"])
  func aPolicyRunExpiresAsItsPolicyWithTTL(name: String) throws {
    let largest = Self.rows.map(\.size).max() ?? 1
    try compare(name, capacity: 15 * largest, timeToLive: TimeToLive(defaultLifetime: 200_000))
    try compare(name, capacity: 15 * largest, timeToLive: TimeToLive())
    // The rows do expire: otherwise the comparison above would not test expiry.
    let engine = try CacheEngine(
      .policyRun(
        TierConfiguration(policy: try PolicySpec(parsing: name), capacity: 15 * largest),
        timeToLive: TimeToLive(defaultLifetime: 200_000)))
    try engine.replay(Self.batch(ttl: true), range: 0..<Self.rows.count)
    #expect(engine.stats.expired > 0)
  }

  @Test(arguments: admissions)
  func aPolicyRunCountsAsItsPolicyWithAdmission(name: String) throws {
    let largest = Self.rows.map(\.size).max() ?? 1
    let admission = name == "adaptsize" ? "adaptsize:reconf-interval=200" : name
    let spec = try PolicySpec(parsing: "lru", admission: try AdmissionSpec(parsing: admission))
    try compare(spec, capacity: 4 * largest)
  }

  @Test func aPolicyRunHasOneMemoryTierAndNothingElse() throws {
    let tier = try TierConfiguration(parsing: "lru:1MiB")
    var withDisk = EngineConfiguration.policyRun(tier)
    withDisk.disk = tier
    #expect(throws: EngineError.self) { try CacheEngine(withDisk) }
    var withoutMemory = EngineConfiguration.policyRun(tier)
    withoutMemory.memory = nil
    #expect(throws: EngineError.self) { try CacheEngine(withoutMemory) }
  }
}
