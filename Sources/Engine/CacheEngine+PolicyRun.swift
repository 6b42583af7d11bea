import CacheCore

/// The replayer's entry, and the engine that is a plain policy run (``PolicyRun``): its batch
/// goes to the memory policy's simulation as is, and its counters are the policy's.
extension CacheEngine {
  /// Replays `batch[range]`: a plain policy run hands it to its policy's simulation (the
  /// policy's request loop); otherwise rows with attributes go one by one through
  /// ``process(_:_:)`` and rows without through
  /// ``replay(_:range:)-(UnsafeBufferPointer<Request>,_)``. Allocates nothing.
  public func replay(_ batch: RequestBatch, range: Range<Int>) throws(EngineError) {
    if isPolicyRun {
      memory.simulation.replay(batch, range: range)
      return
    }
    let failure: EngineError? = batch.withRequests { requests in
      batch.withAttributes { attributes in
        do throws(EngineError) {
          if let attributes {
            let end = range.upperBound
            for index in range {
              // Rows go one by one through branches and calls, and their table entries are
              // scattered: start loading them a few rows ahead.
              let ahead = index &+ Self.rowsAhead
              if ahead < end { prefetch(requests[ahead].key) }
              try process(requests[index], attributes[index])
            }
          } else {
            try replay(requests, range: range)
          }
          return nil
        } catch {
          return error
        }
      }
    }
    if let failure { throw failure }
  }

  /// How many rows ahead ``replay(_:range:)-(RequestBatch,_)`` starts loading a row's table entries.
  static var rowsAhead: Int { 6 }

  /// Starts loading what serving `key` will look up first: the memory and disk tiers' hash
  /// buckets and the origin's version entry. A hint: nothing changes (a preset that files
  /// the row under another key gains nothing from it). A few calls, no allocation.
  @inline(__always)
  func prefetch(_ key: UInt64) {
    memory.simulation.prefetch(key)
    if hasDisk { disk.simulation.prefetch(key) }
    origin.prefetch(key)
  }

  /// A plain policy run's counters as an engine reports them: every hit is a memory hit, and
  /// nothing else is modelled. O(1).
  var policyRunStats: EngineStats { EngineStats(policyRun: memory.simulation.counters) }

  /// Counted misses and their bytes since the last reset, without building ``stats``. O(1).
  public var missCounts: (misses: Int64, bytes: Int64) {
    if isPolicyRun {
      let counted = memory.simulation.counters
      return (counted.misses, counted.missBytes)
    }
    return (counters.misses, counters.missBytes)
  }

  /// Objects its tiers' policies hold between them (what decides whether a replay fits in a
  /// core's private cache, `PrivateCacheFit` in CacheCore). O(1) for most policies.
  public var heldObjects: Int {
    memory.simulation.objectCount + disk.simulation.objectCount + diskMemory.simulation.objectCount
  }

  /// Bytes the memory policy's own structures hold (its arena, index, `--ttl` table and
  /// admission policy). O(1).
  public var structureBytes: Int64 { Int64(memory.simulation.storageBytes) }

  /// ``process(_:_:)`` of a plain policy run: the row alone, with its attributes.
  func processAsPolicyRun(_ request: Request, _ attributes: RequestAttributes) {
    var row = request
    withUnsafePointer(to: &row) {
      replayAsPolicyRun(UnsafeBufferPointer(start: $0, count: 1), range: 0..<1, attributes)
    }
  }

  /// Rows given to a plain policy run outside a batch (a row buffer, or one row through
  /// ``process(_:_:)`` with `attributes`): copied into one batch per call (one allocation),
  /// then through the policy's loop. The replayer hands it whole batches instead.
  func replayAsPolicyRun(
    _ requests: UnsafeBufferPointer<Request>, range: Range<Int>, _ attributes: RequestAttributes = RequestAttributes()
  ) {
    guard !range.isEmpty else { return }
    let batch = RequestBatch(capacity: range.count)
    batch.refill { rows in
      for (offset, index) in range.enumerated() { rows[offset] = requests[index] }
      return range.count
    }
    if attributes != RequestAttributes() { batch.attributesForWriting()[0] = attributes }
    memory.simulation.replay(batch, range: 0..<range.count)
  }
}

extension EngineStats {
  /// A plain policy run's `counted` counters as an engine reports them: every hit is a memory
  /// hit, and nothing else is modelled. O(1).
  public init(policyRun counted: MissCounters) {
    self = .withoutLatency
    requests = counted.requests
    requestBytes = counted.requestBytes
    memoryHits = counted.requests - counted.misses
    hitBytes = counted.requestBytes - counted.missBytes
    memoryEvictions = counted.evictions
    rejected = counted.rejected
    expired = counted.expired
    declined = counted.declined
  }
}
