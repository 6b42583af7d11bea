import CacheCore
import TestSupport
import Testing

@Suite struct SlotArenaTests {
  @Test func randomOperationsAgreeWithADictionary() throws {
    var arena = SlotArena<Int64>(initialCapacity: 16)
    var model: [UInt64: Int64] = [:]
    var slots: [UInt64: Int32] = [:]
    var list = SlotList()
    var random = SplitMix64(seed: 99)
    for step in 0..<20_000 {
      // Keys include 0 and huge values; grows past several doublings and shrinks again.
      let key = step % 3 == 0 ? random.next() % 5000 : UInt64.max - random.next() % 3000
      if let slot = slots[key] {
        #expect(arena.find(key) == slot)
        #expect(arena[slot].extra == model[key])
        if random.next(below: 3) == 0 {
          arena.unlink(slot, from: &list)
          arena.remove(slot)
          slots[key] = nil
          model[key] = nil
          #expect(arena.find(key) == -1)
        } else {
          arena[slot].extra += 1
          model[key]! += 1
          arena.moveToFront(slot, in: &list)
        }
      } else {
        #expect(arena.find(key) == -1)
        let slot = arena.insert(key: key, size: Int64(key % 100), extra: 0)
        arena.pushBack(slot, to: &list)
        slots[key] = slot
        model[key] = 0
      }
      if step % 997 == 0 {
        try arena.checkIndex()
        try arena.checkList(list, named: "list")
      }
    }
    #expect(arena.count == model.count)
    #expect(list.count == model.count)
    #expect(list.bytes == model.keys.reduce(0) { $0 + Int64($1 % 100) })
    try arena.checkIndex()
    try arena.checkList(list, named: "list")
  }

  @Test func listOperationsKeepOrder() throws {
    var arena = SlotArena<Void>()
    var list = SlotList()
    let a = arena.insert(key: 1, size: 10, extra: ())
    let b = arena.insert(key: 2, size: 20, extra: ())
    let c = arena.insert(key: 3, size: 30, extra: ())
    arena.pushFront(a, to: &list)
    arena.pushFront(b, to: &list)
    arena.pushBack(c, to: &list)  // order: b a c
    #expect(list.head == b && list.tail == c && list.bytes == 60)
    arena.moveToFront(c, in: &list)  // c b a
    #expect(list.head == c && list.tail == a)
    let tail = arena.popBack(from: &list)  // c b
    #expect(tail == a)
    arena.remove(tail)
    let victim = arena.evict(b, from: &list)  // c
    #expect(victim == Victim(key: 2, size: 20, slot: b))
    #expect(list.count == 1 && list.head == c && list.tail == c && list.bytes == 30)
    try arena.checkList(list, named: "list")
  }

  @Test func checksDetectCorruption() {
    var arena = SlotArena<Void>()
    var list = SlotList()
    let a = arena.insert(key: 1, size: 10, extra: ())
    arena.pushFront(a, to: &list)
    list.bytes = 11
    #expect(throws: InvariantViolation.self) { try arena.checkList(list, named: "list") }
  }
}

@Suite struct ParametersTests {
  static let specs = [
    ParameterSpec("ratio", default: "0.1", .real(0...1), help: "a ratio", aliases: ["r"]),
    ParameterSpec("count", default: "3", .integer(1...10), help: "a count"),
    ParameterSpec("mode", default: "fast", .choice(["fast", "slow"]), help: "a mode"),
    ParameterSpec("flag", default: "false", .boolean, help: "a flag"),
  ]

  @Test func defaultsAndExplicitValues() throws {
    let parameters = try Parameters(parsing: " r = 0.5 , mode=SLOW,flag=yes", specs: Self.specs, owner: "p")
    #expect(parameters.real("ratio") == 0.5)
    #expect(parameters.integer("count") == 3)
    #expect(parameters.string("mode") == "slow")
    #expect(parameters.boolean("flag"))
    #expect(parameters.isExplicit("ratio") && !parameters.isExplicit("count"))
    #expect(parameters.description == "ratio=0.5,count=3,mode=slow,flag=true")
  }

  @Test(arguments: ["count=0", "count=x", "ratio=2", "mode=medium", "flag=maybe", "count", "size=1", "count=1,count=2"])
  func invalidInputIsRejected(text: String) {
    #expect(throws: ConfigurationError.self) { _ = try Parameters(parsing: text, specs: Self.specs, owner: "p") }
  }

  @Test func unknownKeyNamesTheKnownOnes() {
    do {
      _ = try Parameters(parsing: "size=1", specs: Self.specs, owner: "demo")
      Issue.record("expected an error")
    } catch {
      #expect(error.message == "demo has no parameter 'size' (known: ratio, count, mode, flag)")
    }
  }
}

@Suite struct ByteCountTests {
  @Test(
    arguments: [
      ("512", 512), ("64KiB", 65536), ("1.5GiB", 1_610_612_736), ("10MB", 10_000_000), ("2g", 2_147_483_648),
      ("1 MiB", 1_048_576), ("0", 0), ("100B", 100),
    ] as [(String, Int64)])
  func parses(text: String, bytes: Int64) {
    #expect(ByteCount.parse(text) == bytes)
  }

  @Test(arguments: ["", "abc", "-5", "1.5", "5XB", "1e3KiB", "KiB", "-1KiB"])
  func rejects(text: String) {
    #expect(ByteCount.parse(text) == nil)
  }

  @Test func formats() {
    #expect(ByteCount.format(512) == "512 B")
    #expect(ByteCount.format(1536) == "1.50 KiB")
    #expect(ByteCount.format(134_217_728) == "128 MiB")
  }

  /// Specifications print in the largest unit that divides exactly and parse back to the same count.
  @Test(
    arguments: [
      (536_870_912, "512MiB"), (100_000_000, "100000000"), (4096, "4KiB"), (0, "0"), (1 << 40, "1TiB"),
      (1_610_612_736, "1536MiB"), (1023, "1023"),
    ] as [(Int64, String)])
  func exactSpecificationsRoundTrip(bytes: Int64, text: String) {
    #expect(ByteCount.exact(bytes) == text)
    #expect(ByteCount.parse(text) == bytes)
  }
}

@Suite struct HashingTests {
  @Test func keyHashIsStableAndSpreads() {
    // Fixed expected values: the hash must never change between releases, or string-keyed
    // traces would replay differently.
    #expect(KeyHash.hash("") == KeyHash.mix(0xcbf2_9ce4_8422_2325))
    #expect(KeyHash.hash("https://example.com/a.jpg") == KeyHash.hash("https://example.com/a.jpg"))
    #expect(KeyHash.hash("a") != KeyHash.hash("b"))
    var random = SplitMix64(seed: 1)
    var again = SplitMix64(seed: 1)
    let first = (0..<5).map { _ in random.next() }
    #expect(first == (0..<5).map { _ in again.next() })
    #expect(Set(first).count == 5)
    for _ in 0..<1000 { #expect(random.next(below: 7) < 7) }
  }
}

/// The per-object memory the policies document rests on these layouts.
@Suite struct LayoutTests {
  @Test func nodeSizesMatchTheDocumentation() {
    #expect(MemoryLayout<SlotNode<Void>>.stride == 32)
    #expect(MemoryLayout<SlotNode<Bool>>.stride == 32)
    #expect(MemoryLayout<SlotNode<UInt8>>.stride == 32)
    #expect(MemoryLayout<SlotNode<Int32>>.stride == 32)
    #expect(MemoryLayout<SlotNode<Int64>>.stride == 40)
    #expect(MemoryLayout<Request>.stride == 40)
  }
}
