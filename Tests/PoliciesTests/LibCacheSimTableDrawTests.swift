import CacheCore
import Testing

@testable import Policies

/// `randomSlots(_:_:)`, which draws every bucket before walking any chain, picks the objects
/// that as many `randomSlot(_:)` calls pick, in order, and leaves the generator and the table
/// (its size included) as they leave them: on full tables with long chains, and on tables
/// thinned out after growing, whose empty draws halve them between a batch's draws.
@Suite struct LibCacheSimTableDrawTests {
  /// Adds `count` keys after `next` to both tables, then, when `keep` > 1, removes all but
  /// every `keep`th of them again (the table grew for them, so it is left sparse).
  static func grow(
    _ a: inout LibCacheSimTable<Int64>, _ b: inout LibCacheSimTable<Int64>, next: inout UInt64, count: Int,
    keep: Int
  ) {
    let first = next
    for _ in 0..<count {
      next &+= 1
      _ = a.insert(key: next &* 0x9E37_79B9, size: 1, payload: 0)
      _ = b.insert(key: next &* 0x9E37_79B9, size: 1, payload: 0)
    }
    guard keep > 1 else { return }
    for key in first + 1...next where key % UInt64(keep) != 0 {
      _ = a.take(key: key &* 0x9E37_79B9)
      _ = b.take(key: key &* 0x9E37_79B9)
    }
  }

  @Test(arguments: [
    (power: 4, objects: 200, keep: 1), (power: 10, objects: 3_000, keep: 1), (power: 14, objects: 60, keep: 1),
    (power: 8, objects: 3_000, keep: 40),
  ])
  func batchDrawsEqualOneByOne(power: Int, objects: Int, keep: Int) {
    var batched = LibCacheSimTable<Int64>(power: power, capacity: 16, samples: 4)
    var single = LibCacheSimTable<Int64>(power: power, capacity: 16)
    var batchRandom = Lehmer64(state: Lehmer64.libCacheSimState)
    var singleRandom = Lehmer64(state: Lehmer64.libCacheSimState)
    var next: UInt64 = 0
    if keep == 1 { Self.grow(&batched, &single, next: &next, count: objects, keep: 1) }
    var halvings = 0
    for round in 0..<400 {
      // Thinned tables grow and are thinned again, so that batches keep meeting empty runs.
      if keep > 1, round % 25 == 0 { Self.grow(&batched, &single, next: &next, count: objects, keep: keep) }
      let count = [1, 2, 7, 16, 64, 300][round % 6]
      let before = batched.power
      let drawn = Array(batched.randomSlots(count, &batchRandom))
      let expected = (0..<count).map { _ in single.randomSlot(&singleRandom) }
      #expect(drawn == expected, "round \(round)")
      #expect(batched.power == single.power)
      if batched.power < before { halvings += 1 }
      // Evict the first drawn object and insert a new one, as a sampling policy does.
      _ = batched.take(drawn[0])
      _ = single.take(expected[0])
      Self.grow(&batched, &single, next: &next, count: 1, keep: 1)
    }
    #expect(batchRandom.next() == singleRandom.next())
    #expect(throws: Never.self) { try batched.check() }
    // The sparse tables must have halved during batches.
    if power == 14 || keep > 1 { #expect(halvings > 0) }
  }
}
