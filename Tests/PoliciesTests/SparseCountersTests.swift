import Testing

@testable import Policies

/// The counting Bloom filter's sparse counters (`wtinylfu-lcs` past 16 Mi counters) hold what a
/// dictionary of counts holds through increments, growth and halvings, indices close together
/// and far apart alike.
@Suite struct SparseCountersTests {
  @Test func countsMatchADictionaryThroughGrowthAndHalving() {
    let table = SparseCounters(bits: 4)
    var model: [UInt32: UInt32] = [:]
    var state: UInt64 = 3
    for step in 1...60_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // Half the indices from a small range (repeats, long probe runs), half from all of 2^31.
      let index = step % 2 == 0 ? UInt32(state >> 54) : UInt32(truncatingIfNeeded: state >> 33) & 0x7FFF_FFFF
      table.increment(index)
      model[index, default: 0] &+= 1
      if step % 15_000 == 0 {
        table.halve()
        model = model.compactMapValues { $0 >> 1 == 0 ? nil : $0 >> 1 }
      }
      if step % 997 == 0 {
        #expect(table.count == model.count, "step \(step)")
        for (key, value) in model where table.value(key) != value {
          Issue.record("step \(step): counter \(key) is \(table.value(key)), expected \(value)")
          return
        }
        #expect(table.value(0x7FFF_FFFE) == model[0x7FFF_FFFE, default: 0])
      }
    }
  }
}
