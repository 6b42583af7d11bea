import Testing

@testable import Engine

/// The origin's version table against a dictionary: every key set reads back its last
/// version through several doublings, absent keys read nil, and colliding keys (equal in the
/// hash's high bits) stay apart.
@Suite struct VersionTableTests {
  @Test func agreesWithADictionaryThroughGrowth() {
    var table = VersionTable(initialCapacity: 16)
    var expected: [UInt64: Int64] = [:]
    var state: UInt64 = 42
    for step in 0..<50_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let key = state >> 47  // ~130 000 distinct keys: new ones and updates both occur
      let version = Int64(step)
      table.set(key, version)
      expected[key] = version
    }
    #expect(table.count == expected.count)
    for (key, version) in expected { #expect(table.version(of: key) == version) }
    var absent = 0
    for key in UInt64(1 << 17)..<UInt64(1 << 17) + 1000 where table.version(of: key) == nil { absent += 1 }
    #expect(absent == 1000)
  }

  @Test func keysThatShareAHashPositionStayApart() {
    var table = VersionTable(initialCapacity: 16)
    // Six keys whose multiplicative hash has the same top 4 bits: one home entry of the
    // 16-entry table, so all but the first are placed by probing.
    var keys: [UInt64] = []
    var candidate: UInt64 = 1
    while keys.count < 6 {
      if (candidate &* 0x9e37_79b9_7f4a_7c15) >> 60 == 5 { keys.append(candidate) }
      candidate += 1
    }
    for (index, key) in keys.enumerated() { table.set(key, Int64(index)) }
    for (index, key) in keys.enumerated() { #expect(table.version(of: key) == Int64(index)) }
    table.set(keys[3], 99)
    #expect(table.version(of: keys[3]) == 99)
    #expect(table.count == keys.count)
  }
}
