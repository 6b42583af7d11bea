import CacheCore
import Policies
import TestSupport
import Testing

/// Drives a registered policy with `--ttl` expiry, one request (with its TTL) at a time.
final class ExpiringDriver {
  let simulation: any CacheSimulation
  private let batch = RequestBatch(capacity: 1)

  init(_ spec: String, capacity: Int64, rule: TimeToLive) throws {
    let spec = try PolicySpec(parsing: spec)
    simulation = try spec.entry.makeSimulation(
      capacity: capacity, parameters: spec.parameters, context: PolicyContext(seed: 7), timeToLive: rule)
  }

  /// Serves `request` whose trace TTL is `ttl` µs (≤ 0: none); returns whether it hit.
  @discardableResult
  func serve(_ request: Request, ttl: Int64 = -1) -> Bool {
    let before = simulation.counters.misses
    batch.refill { buffer in
      buffer[0] = request
      return 1
    }
    batch.attributesForWriting()[0].ttl = ttl
    simulation.replay(batch, range: 0..<1)
    return request.operation != .get || simulation.counters.misses == before
  }
}

/// `--ttl`: libCacheSim's lazy expiry (`cache_find_base`: an object whose expiry time is
/// strictly before the request's time is removed and the request misses; `cache_insert_base`:
/// the expiry is the insertion time plus the request's TTL, or the default lifetime).
@Suite struct ExpiryTests {
  static let second: Int64 = 1_000_000

  func at(_ seconds: Int64, _ key: UInt64, _ operation: Request.Operation = .get) -> Request {
    Request(time: seconds * Self.second, key: key, operation: operation)
  }

  @Test func handWorkedSequenceFollowsTheLazyExpiryRules() throws {
    let driver = try ExpiringDriver("lru", capacity: 10, rule: TimeToLive())
    let s = Self.second
    #expect(!driver.serve(at(0, 1), ttl: 10 * s), "first request inserts with expiry 10 s")
    #expect(driver.serve(at(10, 1)), "expiry 10 s is not before 10 s: still a hit")
    #expect(driver.simulation.counters.expired == 0)
    #expect(!driver.serve(at(11, 1), ttl: 10 * s), "10 s < 11 s: expired, a miss that inserts again")
    #expect(driver.simulation.counters.expired == 1)
    #expect(driver.serve(at(21, 1)), "re-inserted at 11 s with 10 s to live: hit at 21 s")
    #expect(!driver.serve(at(22, 1)), "a hit does not extend the lifetime")
    #expect(driver.simulation.counters.expired == 2)
    #expect(driver.serve(at(1000, 1)), "inserted at 22 s by a request without TTL: never expires")
    driver.serve(at(1001, 2, .put), ttl: s)
    #expect(driver.serve(at(1002, 2)))
    #expect(!driver.serve(at(1003, 2)), "a put sets the expiry like an insertion")
    driver.serve(at(1004, 2, .delete))
    #expect(!driver.serve(at(2000, 2)), "deleted: a miss, not an expiry")
    #expect(driver.simulation.counters.expired == 3)
    #expect(driver.simulation.counters.misses == 5)
    #expect(driver.simulation.counters.evictions == 0, "expiries are not evictions")
  }

  @Test func theDefaultLifetimeAppliesOnlyToRequestsWithoutTTL() throws {
    let driver = try ExpiringDriver("fifo", capacity: 10, rule: TimeToLive(defaultLifetime: 5 * Self.second))
    driver.serve(at(0, 1))
    driver.serve(at(0, 2), ttl: 100 * Self.second)
    #expect(!driver.serve(at(6, 1)), "default 5 s: expired at 6 s")
    #expect(driver.serve(at(6, 2)), "its own TTL of 100 s wins over the default")
    #expect(driver.simulation.counters.expired == 1)
  }

  @Test func parsesTraceOrADuration() throws {
    #expect(try TimeToLive(parsing: "trace") == TimeToLive())
    #expect(try TimeToLive(parsing: "2h").defaultLifetime == 7200 * Self.second)
    #expect(try TimeToLive(parsing: "90s").description == "90s")
    for bad in ["0s", "-1s", "never", "", "soon"] {
      #expect(throws: ConfigurationError.self) { try TimeToLive(parsing: bad) }
    }
  }

  /// The same rules written independently on the array models, for FIFO, LRU and CLOCK, over
  /// random traces with random TTLs (some none) and a default lifetime or not.
  @Test(arguments: [(("fifo", ModelCache.Kind.fifo)), ("lru", .lru), ("clock", .clock(max: 1))], [false, true])
  func matchesTheArrayModelsWithExpiry(policy: (String, ModelCache.Kind), withDefault: Bool) throws {
    let s = Self.second
    let rule = TimeToLive(defaultLifetime: withDefault ? 40 * s : 0)
    let requests = SyntheticTraces.requests(count: 6000, objects: 200, sizes: 1...50, seed: 21)
    var random = SplitMix64(seed: 5)
    var totalExpired = 0
    for capacity: Int64 in [60, 400, 3000, 20000] {
      let driver = try ExpiringDriver(policy.0, capacity: capacity, rule: rule)
      var model = ModelCache(kind: policy.1, capacity: capacity)
      var expiries: [UInt64: Int64] = [:]
      var expired = 0
      for (index, base) in requests.enumerated() {
        let request = Request(time: Int64(index / 3) * s, key: base.key, size: base.size)
        let ttl = [0, -1, 3 * s, 25 * s, 120 * s][random.next(below: 5)]
        if let expiry = expiries[request.key], expiry < request.time {
          expiries[request.key] = nil
          if model.remove(request.key) { expired += 1 }
        }
        let expected = model.serve(request)
        for key in expiries.keys where !model.entries.contains(where: { $0.key == key }) { expiries[key] = nil }
        if !expected, model.entries.contains(where: { $0.key == request.key }) {
          let lifetime = ttl > 0 ? ttl : rule.defaultLifetime
          expiries[request.key] = lifetime > 0 ? request.time + lifetime : nil
        }
        let actual = driver.serve(request, ttl: ttl)
        if expected != actual {
          Issue.record("\(policy.0) capacity \(capacity): request \(index) model hit=\(expected), policy hit=\(actual)")
          return
        }
      }
      #expect(driver.simulation.counters.expired == Int64(expired))
      #expect(driver.simulation.occupiedBytes == model.used)
      totalExpired += expired
    }
    #expect(totalExpired > 100, "the traces exercise expiry")
  }

  /// Every registered policy keeps its invariants under expiry, and with lifetimes longer than
  /// the trace a `--ttl` run counts exactly what a run without one counts.
  @Test(arguments: PolicyRegistry.all.map(\.descriptor.name))
  func everyPolicyExpiresConsistently(name: String) throws {
    let requests = SyntheticTraces.requests(count: 1500, objects: 120, sizes: 1...400, seed: 4)
    let capacity: Int64 = 20000
    let long = try ExpiringDriver(name, capacity: capacity, rule: TimeToLive(defaultLifetime: 1 << 40))
    let short = try ExpiringDriver(name, capacity: capacity, rule: TimeToLive(defaultLifetime: 200_000))
    let plain = try PolicyDriver(PolicySpec(parsing: name), capacity: capacity)
    for request in requests {
      long.serve(request)
      short.serve(request)
      plain.serve(request)
      try short.simulation.checkInvariants()
    }
    try long.simulation.checkInvariants()
    #expect(long.simulation.counters == plain.simulation.counters)
    #expect(short.simulation.counters.expired > 0)
  }
}
