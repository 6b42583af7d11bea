import CacheCore
import Policies
import Testing

/// Hand-checked eviction orders, one small scenario per policy (Given / When / Then).
@Suite struct EvictionOrderTests {
  static func parameters<P: EvictionPolicy & ~Copyable>(_: P.Type, _ text: String = "") throws -> Parameters {
    try Parameters(parsing: text, specs: P.descriptor.parameters, owner: P.descriptor.name)
  }

  @Test func lruEvictsTheLeastRecentlyUsed() throws {
    // Given a full LRU of three where `a` was just used again
    var lru = LRU(capacity: 3, parameters: try Self.parameters(LRU.self), context: PolicyContext())
    var sink = RecordingSink()
    for key: UInt64 in [1, 2, 3, 1] { _ = lru.handle(request(key), collecting: &sink) }
    // When a new object arrives
    let outcome = lru.handle(request(4), collecting: &sink)
    #expect(outcome == .inserted)
    // Then the least recently used (2) leaves, and the others stay
    #expect(sink.keys == [2])
    let kept = lru.contains(1) && lru.contains(3) && lru.contains(4) && !lru.contains(2)
    #expect(kept)
    try lru.checkInvariants()
  }

  @Test func fifoIgnoresHits() throws {
    var fifo = FIFO(capacity: 3, parameters: try Self.parameters(FIFO.self), context: PolicyContext())
    var sink = RecordingSink()
    for key: UInt64 in [1, 2, 3, 1, 1] { _ = fifo.handle(request(key), collecting: &sink) }
    _ = fifo.handle(request(4), collecting: &sink)
    _ = fifo.handle(request(5), collecting: &sink)
    #expect(sink.keys == [1, 2])
    try fifo.checkInvariants()
  }

  @Test func clockGivesHitObjectsASecondChance() throws {
    // Given a full 1-bit CLOCK where 1 and 3 were hit
    var clock = Clock(capacity: 3, parameters: try Self.parameters(Clock.self), context: PolicyContext())
    var sink = RecordingSink()
    for key: UInt64 in [1, 2, 3, 1, 3] { _ = clock.handle(request(key), collecting: &sink) }
    // When two new objects arrive
    _ = clock.handle(request(4), collecting: &sink)
    _ = clock.handle(request(5), collecting: &sink)
    // Then 2 (never hit) goes first; 1 lost its bit on the first pass and goes next
    #expect(sink.keys == [2, 1])
    let kept = clock.contains(3)
    #expect(kept)
    try clock.checkInvariants()
  }

  @Test func clockCounterSaturatesAtItsWidth() throws {
    // Given a 2-bit CLOCK: counters count up to 3
    var clock = Clock(capacity: 2, parameters: try Self.parameters(Clock.self, "bits=2"), context: PolicyContext())
    var sink = RecordingSink()
    for key: UInt64 in [1, 2, 1, 1, 1, 1, 2] { _ = clock.handle(request(key), collecting: &sink) }
    // When 3 and 4 arrive: 1 (counter 3) survives three passes, 2 (counter 1) only one
    _ = clock.handle(request(3), collecting: &sink)
    #expect(sink.keys == [2])
    _ = clock.handle(request(4), collecting: &sink)
    #expect(sink.keys == [2, 3])
    let kept = clock.contains(1)
    #expect(kept)
    try clock.checkInvariants()
  }

  @Test func sieveKeepsVisitedObjectsInPlaceAndMovesTheHand() throws {
    // Given SIEVE with objects 1..4 (1 oldest) where 1 and 3 were visited
    var sieve = Sieve(capacity: 4, parameters: try Self.parameters(Sieve.self), context: PolicyContext())
    var sink = RecordingSink()
    for key: UInt64 in [1, 2, 3, 4, 1, 3] { _ = sieve.handle(request(key), collecting: &sink) }
    // When 5 arrives, the hand passes 1 (clearing it) and evicts 2
    _ = sieve.handle(request(5), collecting: &sink)
    #expect(sink.keys == [2])
    // And when 6 arrives, the hand continues from 3 (visited, cleared) to 4
    _ = sieve.handle(request(6), collecting: &sink)
    #expect(sink.keys == [2, 4])
    // And when 7 arrives, the hand keeps moving towards the head: the unvisited 5 goes,
    // while 3 and 1 (behind the hand) stay
    _ = sieve.handle(request(7), collecting: &sink)
    #expect(sink.keys == [2, 4, 5])
    let kept = sieve.contains(1) && sieve.contains(3)
    #expect(kept)
    try sieve.checkInvariants()
  }

  @Test func objectsLargerThanTheCacheAreNeverInserted() throws {
    for entry in PolicyRegistry.all {
      let name = entry.descriptor.name
      let driver = try PolicyDriver(PolicySpec(parsing: name), capacity: 10_000)
      for key: UInt64 in 1...4 { driver.serve(request(key, size: 5)) }
      let before = driver.simulation.occupiedBytes
      #expect(!driver.serve(request(99, size: 10_001)), "\(name)")
      #expect(!driver.serve(request(99, size: 10_001)), "\(name): an oversized object must never hit")
      #expect(driver.simulation.occupiedBytes <= 10_000)
      if entry.descriptor.insertsBeforeTrimming {
        // Library caches insert first and trim after: the oversized object empties the cache.
        #expect(driver.simulation.occupiedBytes == 0, "\(name)")
      } else {
        // libCacheSim's rule: the object is rejected and the cache stays as it was.
        #expect(driver.simulation.counters.rejected == 2, "\(name)")
        #expect(driver.simulation.occupiedBytes == before, "\(name)")
      }
    }
  }

  @Test func anObjectTheSizeOfTheCacheIsAdmitted() throws {
    for name in ["lru", "fifo", "clock", "sieve", "lfu", "gdsf", "arc"] {
      let driver = try PolicyDriver(name, capacity: 100)
      driver.serve(request(1, size: 100))
      #expect(driver.serve(request(1, size: 100)), "\(name)")
    }
  }

  /// libCacheSim's rule, except where its own code re-inserts a hit object with the request's
  /// size: `SLRUv0.c` and `ARCv0.c` move a promoted object by inserting the request (checked
  /// against the libcachesim package: 500 bytes held afterwards, LRU 100).
  @Test func aHitDoesNotChangeTheStoredSize() throws {
    let takesTheRequestSize: Set = ["slru-v0", "arc-v0"]
    for entry in PolicyRegistry.all {
      let name = entry.descriptor.name
      let driver = try PolicyDriver(PolicySpec(parsing: name), capacity: 100_000)
      driver.serve(request(1, size: 100))
      #expect(driver.serve(request(1, size: 500)), "\(name)")
      #expect(driver.simulation.occupiedBytes == (takesTheRequestSize.contains(name) ? 500 : 100), "\(name)")
    }
  }
}
