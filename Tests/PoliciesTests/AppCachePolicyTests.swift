import CacheCore
import Policies
import Testing

/// The library-cache policies reproduce the rules of the code they model
/// (../shared/design/seed-systems.md).
@Suite struct AppCachePolicyTests {
  static let mebibyte: Int64 = 1 << 20

  @Test func afPurgesFromOverOneHundredToSixtyMegabytesByLastAccess() throws {
    // Given AFAutoPurgingImageCache's defaults: 100 MiB capacity, 60 MiB after a purge
    let driver = try PolicyDriver("access-date-purge", capacity: 100 * Self.mebibyte)
    for key in 1...10 { driver.serve(request(UInt64(key), size: 10 * Self.mebibyte)) }
    #expect(driver.simulation.occupiedBytes == 100 * Self.mebibyte)  // not over: no purge yet
    // Reading 1 and 2 refreshes their access dates
    #expect(driver.serve(request(1, size: 10 * Self.mebibyte)))
    #expect(driver.serve(request(2, size: 10 * Self.mebibyte)))
    // When an 11th image pushes usage over 100 MiB
    driver.serve(request(11, size: 5 * Self.mebibyte))
    // Then the least recently accessed go first until usage is at most 60 MiB: 3, 4, 5, 6, 7
    #expect(driver.simulation.occupiedBytes == 55 * Self.mebibyte)
    #expect(driver.simulation.counters.evictions == 5)
    for key: UInt64 in [1, 2, 8, 9, 10, 11] { #expect(driver.serve(request(key, size: 1)), "\(key) should remain") }
    for key: UInt64 in [3, 4, 5, 6, 7] { #expect(!driver.serve(request(key, size: 1)), "\(key) should be purged") }
  }

  @Test func afPurgeNeedsUsageStrictlyAboveTheCapacity() throws {
    let driver = try PolicyDriver("access-date-purge:low=0.5", capacity: 100)
    driver.serve(request(1, size: 60))
    driver.serve(request(2, size: 40))
    #expect(driver.simulation.occupiedBytes == 100)
    driver.serve(request(3, size: 1))
    // 101 > 100: purge oldest (1) then stop at 41 <= 50.
    #expect(driver.simulation.occupiedBytes == 41)
  }

  @Test func linuxNSCacheEvictsCheapestFirst() throws {
    // Verified on Linux Foundation: costs 5, 1, 3, 6 with totalCostLimit 10 evict 1, 3, 5.
    let driver = try PolicyDriver("nscache", capacity: 10)
    for (key, cost) in [(1, 5), (2, 1), (3, 3), (4, 6)] as [(UInt64, Int64)] { driver.serve(request(key, size: cost)) }
    #expect(driver.simulation.objectCount == 1)
    #expect(driver.serve(request(4, size: 6)))
    #expect(driver.simulation.counters.evictions == 3)
  }

  @Test func linuxNSCacheEvictsTheNewestAmongEqualCosts() throws {
    // Verified on Linux Foundation: countLimit 3 with five cost-0 inserts keeps k1...k3;
    // each later insert evicts itself.
    let driver = try PolicyDriver("nscache:count-limit=3", capacity: 1000)
    for key: UInt64 in 1...5 { driver.serve(request(key, size: 0)) }
    for key: UInt64 in 1...3 { #expect(driver.serve(request(key, size: 0)), "k\(key) stays") }
    for key: UInt64 in 4...5 { #expect(!driver.serve(request(key, size: 0)), "k\(key) was evicted at once") }
  }

  @Test func linuxNSCacheReadsDoNotProtect() throws {
    let driver = try PolicyDriver("nscache", capacity: 10)
    driver.serve(request(1, size: 4))
    driver.serve(request(2, size: 5))
    #expect(driver.serve(request(1, size: 4)))  // read: no effect on order
    driver.serve(request(3, size: 5))  // 14 > 10: cheapest (1) goes
    #expect(!driver.serve(request(1, size: 4)))
  }

  @Test func costLRUHonoursCountAndEntryLimits() throws {
    // Nuke-like: entries must cost less than 10 % of the limit; at most 3 objects.
    let driver = try PolicyDriver("cost-lru:count-limit=3,entry-limit=0.1", capacity: 1000)
    #expect(!driver.serve(request(1, size: 100)))
    #expect(!driver.serve(request(1, size: 100)), "cost 100 is not below 10 % of 1000: never admitted")
    #expect(driver.simulation.counters.rejected == 2)
    for key: UInt64 in 2...5 { driver.serve(request(key, size: 99)) }
    #expect(driver.simulation.objectCount == 3)
    #expect(!driver.serve(request(2, size: 99)), "the least recently used went first")
    #expect(driver.serve(request(5, size: 99)))
  }
}
