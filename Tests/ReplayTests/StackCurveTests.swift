import CacheCore
import Foundation
import Policies
import TestSupport
import Testing
import Traces

@testable import Replay

/// The LRU stack pass in small: distances by hand, the arena's footprint model, a large trace
/// that crosses every footprint threshold and renumbers its positions many times, and the
/// cases where the stack property breaks, which must not use the pass.
@Suite struct StackCurveTests {
  @Test func distancesAreTheSizesOfTheObjectAndEverythingAboveIt() {
    var stack = LRUStack()
    // a5 b3 c2 a5 b3: a's distance is a+b+c = 10, then b's is b+c+a = 10... and again.
    #expect(stack.access(key: 1, size: 5) == nil)
    #expect(stack.access(key: 2, size: 3) == nil)
    #expect(stack.access(key: 3, size: 2) == nil)
    #expect(stack.access(key: 1, size: 5) == 10)
    #expect(stack.access(key: 1, size: 5) == 5)
    #expect(stack.access(key: 3, size: 2) == 7)
    #expect(stack.residents([1, 2, 6, 7, 10, 100]) == [0, 1, 1, 2, 3, 3])
    #expect(stack.checkInvariants() == nil)
  }

  @Test func binsCountTheSizesADistanceMissesAt() {
    let capacities: [Int64] = [10, 20, 40]
    capacities.withUnsafeBufferPointer { capacities in
      #expect(StackCurveTarget.sizesBelow(5, capacities) == 0)
      #expect(StackCurveTarget.sizesBelow(10, capacities) == 0)
      #expect(StackCurveTarget.sizesBelow(11, capacities) == 1)
      #expect(StackCurveTarget.sizesBelow(40, capacities) == 2)
      #expect(StackCurveTarget.sizesBelow(41, capacities) == 3)
    }
  }

  /// The footprint model against real arenas after random inserts and removals.
  @Test func theFootprintModelMatchesARealArena() {
    var random = SplitMix64(seed: 3)
    for initial in [1, 16, 100, 1000, 65_536] {
      var arena = SlotArena<Void>(initialCapacity: initial)
      var live: [Int32] = []
      var peak = 0
      for step in 0..<5_000 {
        if live.isEmpty || random.next(below: 3) > 0 {
          live.append(arena.insert(key: UInt64(step), size: 1, extra: ()))
        } else {
          let index = random.next(below: live.count)
          arena.remove(live.remove(at: index))
        }
        peak = max(peak, live.count)
        #expect(SlotArena<Void>.footprint(initialCapacity: initial, peakLiveCount: peak) == arena.memoryFootprint)
      }
    }
  }

  /// 300,000 objects over 1.5 M requests: the positions are renumbered many times and every
  /// arena threshold up to 2^18 objects is crossed; rows equal simulation at sizes around them.
  @Test(arguments: [false, true])
  func aLargeTraceCrossesEveryThresholdExactly(objectMode: Bool) throws {
    let path = Self.largeTrace
    let sizes: [Int64] =
      objectMode
      ? [1, 1000, 65_535, 65_536, 65_537, 100_000, 131_072, 131_073, 200_000, 262_144, 262_145, 290_000, 400_000]
      : [64, 1000, 65_535, 65_536, 65_537, 2_000_000, 4_000_000, 4_500_000, 8_000_000, 9_000_000, 20_000_000]
    let capacities = sizes.map { CapacitySpec.absolute($0) }
    let simulated = try StackCurveEquivalenceTests.run(
      path, format: "oracle-general", objectMode: objectMode, capacities: capacities, method: .simulate)
    let stacked = try StackCurveEquivalenceTests.run(
      path, format: "oracle-general", objectMode: objectMode, capacities: capacities, method: .stack)
    let differences = StackCurveEquivalenceTests.differences(simulated, stacked)
    #expect(differences.isEmpty, "\(differences.prefix(5))")
    // The sizes really span several arena sizes (so the thresholds were tested).
    #expect(Set(stacked.caches.compactMap(\.structureBytes)).count >= 4)
  }

  static let largeTrace = Paths.temporaryFile(
    "large.oracleGeneral.bin",
    bytes: SyntheticTraces.oracleGeneral(
      SyntheticTraces.requests(count: 1_500_000, objects: 300_000, sizes: 1...64, seed: 11)))

  /// Traces that break the stack property: a size change, an object larger than a cache, a
  /// delete. The automatic method simulates where it must, and rows equal simulation.
  @Test func whereTheStackPropertyBreaksTheRunSimulates() throws {
    let sizes = [10, 20, 30, 40, 60].map { CapacitySpec.absolute($0) }
    let cases: [(String, String)] = [
      ("size change", "get,a,4\nget,b,4\nget,a,6\nget,c,5\nget,a,6\n"),
      ("larger than a cache", "get,y,5\nget,x,16\nget,y,5\nget,z,12\nget,y,5\n"),
      ("delete", "get,a,5\nget,b,5\nget,c,5\ndelete,c,0\nget,a,5\nget,b,5\n"),
    ]
    for (name, rows) in cases {
      let numbered = rows.split(separator: "\n").enumerated().map { "\($0.offset + 1),\($0.element)\n" }.joined()
      let path = Paths.temporaryFile(
        "\(name.replacingOccurrences(of: " ", with: "-")).cachelab.csv", text: "time,op,key,size\n" + numbered)
      let format = "cachelab"
      let simulated = try StackCurveEquivalenceTests.run(
        path, format: format, objectMode: false, capacities: sizes, method: .simulate)
      let automatic = try StackCurveEquivalenceTests.run(
        path, format: format, objectMode: false, capacities: sizes, method: .automatic)
      #expect(StackCurveEquivalenceTests.differences(simulated, automatic).isEmpty, "\(name)")
      #expect(automatic.methodNote?.contains("simulated") == true, "\(name): \(automatic.methodNote ?? "")")
    }
  }
}
