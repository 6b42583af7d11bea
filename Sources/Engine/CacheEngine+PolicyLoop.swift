import CacheCore

/// Rows without attributes on a memory-only engine with CacheLab's generic rules and objects
/// that never expire: the memory policy's own request loop serves them (the loop of a plain
/// policy run, ``CacheSimulation/replayServing(_:range:outcomes:)``) and the engine accounts
/// each outcome as its general path would. Nothing such a run does reads per-object metadata
/// (every version is the first, nothing expires, no disk), so the tier keeps none. The loop
/// stores a `put` through the policy's `store` (remove, then serve as a miss), which for a
/// policy with stable slots is the engine's store: such a policy keeps no ghost entries.
/// `PolicyLoopEquivalenceTests` checks the two paths count alike, row mix by row mix.
extension CacheEngine {
  /// Whether `configuration` reads no per-object metadata on rows without attributes and its
  /// tier is its policy alone: a memory tier alone whose policy has stable slots (its general
  /// path then keeps no index either, and a hit tells the policy only the slot), no admission
  /// policy that learns from every request (the general path shows it a hit with the stored
  /// size, the loop with the request's: AdaptSize), generic rules, objects that never expire,
  /// no admission limit, a capacity in bytes (or cost, which is then the size) without blocks
  /// or in objects (the policy then sees every size as 1, as the general path shows it), no
  /// timers and no action on a row without an event.
  public static func servesThroughPolicyLoop(_ configuration: EngineConfiguration) -> Bool {
    guard let memory = configuration.memory, memory.policy.entry.slotsAreStable,
      memory.policy.admission.map({ !$0.entry.observesRequests }) ?? true,
      configuration.disk == nil, configuration.diskMemory == nil, configuration.rules is GenericRules,
      memory.expiry.rule is NoExpiry, memory.admissionLimit == nil, memory.blockSize == 0,
      configuration.timers.isEmpty
    else { return false }
    return configuration.events[LifecycleEvent.none]?.isEmpty ?? true
  }

  /// Replays `requests[range]`, rows without attributes: through the memory policy's loop
  /// when the engine was built for such rows and ``servesThroughPolicyLoop(_:)``, otherwise
  /// one ``process(_:_:)`` per row. Allocates only when a longer range than before needs a
  /// larger outcome buffer, except in a plain policy run, which copies the rows into one batch
  /// per call (the replayer hands it whole batches instead).
  public func replay(_ requests: UnsafeBufferPointer<Request>, range: Range<Int>) throws(EngineError) {
    if isPolicyRun {
      replayAsPolicyRun(requests, range: range)
      return
    }
    guard throughPolicyLoop else {
      let none = RequestAttributes()
      for index in range { try process(requests[index], none) }
      return
    }
    Self.grow(&outcomeScratch, to: range.count, filling: .hit)
    outcomeScratch.withUnsafeMutableBufferPointer { outcomes in
      guard let buffer = outcomes.baseAddress else { return }
      if memory.configuration.unit == .count {
        counters.memoryEvictions += replayCountingObjects(requests, range: range, outcomes: buffer)
      } else {
        counters.memoryEvictions += memory.simulation.replayServing(requests, range: range, outcomes: buffer)
      }
      account(requests, range: range, outcomes: buffer)
    }
  }

  /// The policy loop of a tier that counts objects: over a copy of `requests[range]` with
  /// every size 1 (reused storage), as the general path gives the policy each object's units.
  /// Returns the evictions.
  private func replayCountingObjects(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>
  ) -> Int64 {
    Self.grow(&objectRowsScratch, to: range.count, filling: Request(key: 0, size: 1))
    return objectRowsScratch.withUnsafeMutableBufferPointer { rows in
      var offset = 0
      for index in range {
        var row = requests[index]
        row.size = 1
        rows[offset] = row
        offset += 1
      }
      return memory.simulation.replayServing(UnsafeBufferPointer(rows), range: 0..<range.count, outcomes: outcomes)
    }
  }

  /// Makes reused storage hold at least `count` elements (at least doubling when it grows, so
  /// that ranges growing one by one reallocate rarely); keeps it as it is otherwise.
  private static func grow<Element>(_ storage: inout [Element], to count: Int, filling filler: Element) {
    guard storage.count < count else { return }
    storage = [Element](repeating: filler, count: max(count, 2 * storage.count))
  }

  /// Counts the `get` rows of `requests[range]` as ``get(_:_:version:)`` does: a hit from
  /// memory at the memory latency, or a fetch from the origin (which never fails without
  /// attributes) at its round trip and transfer time. O(range).
  private func account(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, outcomes: UnsafeMutablePointer<Outcome>
  ) {
    let header = configuration.latency.headerBytes
    let memory = configuration.latency.memory
    let roundTrip = configuration.latency.origin.fixed
    var tally = counters
    for index in range where requests[index].operation == .get {
      let size = requests[index].size
      tally.requests += 1
      tally.requestBytes += size
      if outcomes[index - range.lowerBound] == .hit {
        tally.memoryHits += 1
        tally.hitBytes += size
        latencies.record(memory.cost(size), .memory)
      } else {
        tally.originFetches += 1
        tally.originBytes += size + header
        latencies.record(roundTrip + transfer(size + header), .origin)
      }
    }
    counters = tally
  }

  /// ``process(_:_:)`` of an engine serving through its policy loop: `attributes` must be
  /// the defaults, as the engine was promised.
  func processThroughPolicyLoop(_ request: Request, _ attributes: RequestAttributes) throws(EngineError) {
    guard attributes == RequestAttributes() else {
      throw .configuration(
        ConfigurationError(.invalidValue, "a row with attributes reached an engine built for rows without"))
    }
    var row = request
    try withUnsafePointer(to: &row) { (pointer) throws(EngineError) in
      try replay(UnsafeBufferPointer(start: pointer, count: 1), range: 0..<1)
    }
  }
}
