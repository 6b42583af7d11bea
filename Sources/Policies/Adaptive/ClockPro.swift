import CacheCore

/// CLOCK-Pro: CLOCK with LIRS's reuse-distance idea. Pages are hot or cold; a newly admitted
/// cold page starts a test period, during which a second access (even after it was evicted
/// and only its key remains) proves a short reuse distance and promotes it to hot. Three
/// hands walk one clock from the oldest page toward the newest: the cold hand evicts
/// resident cold pages (a referenced one in its test period is promoted instead), the hot
/// hand demotes unreferenced hot pages to cold (referenced ones get another round) and the
/// test hand ends test periods of non-resident pages. The resident cold target adapts: a
/// test-period hit raises it, a test period that ends unreferenced lowers it.
///
/// As Caffeine's simulator (`irr.ClockProPolicy`, which reproduces the authors' `clock-pro.c`)
/// with its defaults: cold target between max(2, 1 %) and 99 % of the capacity starting at the
/// minimum, non-resident keys bounded by 2 × the capacity, the cold hand replacing a
/// referenced page outside its test period (`cold-hand=reset` keeps it, as the paper
/// describes), a promotion refused when the hot hand finds nothing to demote, and a request
/// for the same key as the previous one a hit that changes nothing. Not libCacheSim's
/// `ClockPro.c`, which stops inserting once its cold region is full. In byte mode every count
/// becomes a byte total (a page weighs its size; the target moves by the page's size). A
/// cache smaller than four units keeps one unit of cold target.
/// Origin: Jiang, Chen & Zhang, "CLOCK-Pro: An Effective Improvement of the CLOCK
/// Replacement", USENIX ATC 2005; Caffeine simulator `ClockProPolicy`.
/// Memory: 36 B per resident page (32 B node + 4 B bucket); the same per remembered key.
public struct ClockPro: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "clockpro",
    aliases: ["clock-pro"],
    summary: "CLOCK with hot/cold pages and test periods: reuse distance decides, three hands walk one clock",
    origin: "Jiang, Chen & Zhang, USENIX ATC 2005; Caffeine simulator ClockProPolicy",
    parameters: [
      ParameterSpec(
        "min-cold", default: "0.01", .real(0...1), help: "smallest resident cold target, share of the capacity",
        aliases: ["percent-min-resident-cold"]),
      ParameterSpec(
        "max-cold", default: "0.99", .real(0...1), help: "largest resident cold target, share of the capacity",
        aliases: ["percent-max-resident-cold"]),
      ParameterSpec(
        "cold-floor", default: "2", .integer(1...1_000_000), help: "smallest resident cold target, in units",
        aliases: ["lower-bound-resident-cold"]),
      ParameterSpec(
        "ghosts", default: "2", .real(0...16), help: "non-resident keys kept, as a multiple of the capacity",
        aliases: ["non-resident-multiplier"]),
      ParameterSpec(
        "cold-hand", default: "replace", .choice(["replace", "reset"]),
        help: "a referenced cold page outside its test period: replace (evict it) or reset (keep it, clear its bit)"),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket), plus 36 B per remembered key",
    libCacheSim: .none(
      reason:
        "CacheLab follows Caffeine's simulator (ClockProPolicy); the package's ClockPro stops changing once its cold region fills"
    ))

  @usableFromInline static let hot: UInt8 = 0
  @usableFromInline static let cold: UInt8 = 1
  @usableFromInline static let coldInTest: UInt8 = 2
  @usableFromInline static let ghost: UInt8 = 3
  @usableFromInline static let outOfClock: UInt8 = 4

  /// A page's status and reference bit.
  @frozen
  public struct Page {
    @usableFromInline var status: UInt8
    @usableFromInline var referenced: Bool

    @inlinable
    init(_ status: UInt8) {
      self.status = status
      referenced = false
    }
  }

  @usableFromInline var arena: SlotArena<Page>
  /// The clock: head newest, tail oldest; hands walk toward the head and wrap to the tail.
  @usableFromInline var clock = SlotList()
  @usableFromInline var handHot: Int32 = -1
  @usableFromInline var handCold: Int32 = -1
  @usableFromInline var handTest: Int32 = -1
  @usableFromInline var hotBytes: Int64 = 0
  @usableFromInline var coldBytes: Int64 = 0
  @usableFromInline var ghostBytes: Int64 = 0
  @usableFromInline var hotCount = 0
  @usableFromInline var coldCount = 0
  @usableFromInline var inTestCount = 0
  @usableFromInline var coldTarget: Int64
  @usableFromInline let minCold: Int64
  @usableFromInline let maxCold: Int64
  @usableFromInline let ghostLimit: Int64
  @usableFromInline let resetsColdHand: Bool
  /// The previous request's key (a repeat is a hit that changes nothing), or nil.
  @usableFromInline var lastKey: UInt64?
  /// A remembered key being promoted: kept allocated if its test period ends meanwhile.
  @usableFromInline var protectedPage: Int32 = -1
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    var low = max(parameters.integer("cold-floor"), Int64(Double(capacity) * parameters.real("min-cold")))
    var high = min(capacity - low, Int64(Double(capacity) * parameters.real("max-cold")))
    if low < 1 || low > high {
      low = 1
      high = max(1, capacity - 1)
    }
    minCold = low
    maxCold = high
    coldTarget = low
    ghostLimit = Int64(Double(capacity) * parameters.real("ghosts"))
    resetsColdHand = parameters.string("cold-hand") == "reset"
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { hotBytes + coldBytes }
  @inlinable public var objectCount: Int { hotCount + coldCount }
  public var storageBytes: Int { arena.memoryFootprint }
  @inlinable var free: Int64 { capacity - hotBytes - coldBytes }

  @inlinable
  func isResident(_ slot: Int32) -> Bool { arena[slot].extra.status <= Self.coldInTest }
  @inlinable
  func isResidentCold(_ slot: Int32) -> Bool {
    arena[slot].extra.status == Self.cold || arena[slot].extra.status == Self.coldInTest
  }
  @inlinable
  func isInTest(_ slot: Int32) -> Bool {
    arena[slot].extra.status == Self.coldInTest || arena[slot].extra.status == Self.ghost
  }
  @inlinable
  func isCold(_ slot: Int32) -> Bool { arena[slot].extra.status >= Self.cold && arena[slot].extra.status <= Self.ghost }

  /// The next newer page, wrapping from the newest to the oldest.
  @inlinable
  func newer(_ slot: Int32) -> Int32 { slot == clock.head ? clock.tail : arena[slot].prev }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0, isResident(slot) else { return false }
    arena[slot].extra.referenced = true
    return true
  }

  /// Admits a missed page with the room free: hot while the cache warms up, then cold in a
  /// test period.
  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Page(Self.outOfClock))
    moveToHead(slot, free - request.size >= minCold ? Self.hot : Self.coldInTest, size: request.size)
    organizeHands()
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let slot = arena.find(request.key)
    if let lastKey, lastKey == request.key, slot >= 0, isResident(slot) { return .hit }
    lastKey = request.key
    if slot >= 0, isResident(slot) {
      arena[slot].extra.referenced = true
      return .hit
    }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    let size = request.size
    if free - size >= minCold || free >= size {
      let page = slot >= 0 ? slot : arena.insert(key: request.key, size: size, extra: Page(Self.outOfClock))
      moveToHead(page, free - size >= minCold ? Self.hot : Self.coldInTest, size: size)
    } else if slot >= 0 {
      // A remembered key in its test period: a short reuse distance. Making room may end
      // the test period; the key then returns as a new cold page.
      protectedPage = slot
      makeRoom(size, collecting: &victims)
      let promoted = canPromote(slot, size: size)
      protectedPage = -1
      moveToHead(slot, promoted ? Self.hot : Self.coldInTest, size: size)
    } else {
      makeRoom(size, collecting: &victims)
      let page = arena.insert(key: request.key, size: size, extra: Page(Self.outOfClock))
      moveToHead(page, Self.coldInTest, size: size)
    }
    organizeHands()
    return .inserted
  }

  /// Runs the cold hand until `size` units are free.
  @inlinable
  mutating func makeRoom<Sink: VictimSink>(_ size: Int64, collecting victims: inout Sink) {
    while free < size { coldHandStep(collecting: &victims) }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let before = objectCount
    while objectCount == before { coldHandStep(collecting: &victims) }
    organizeHands()
  }

  /// One move of the cold hand (Caffeine's `runHandCold`): promotes a referenced page in its
  /// test period, otherwise evicts the page (keeping its key while in test). Without resident
  /// cold pages (only in byte mode, for an object larger than them all) it demotes the hot
  /// hand's page first.
  @inlinable
  mutating func coldHandStep<Sink: VictimSink>(collecting victims: inout Sink) {
    if handCold < 0 {
      demoteOldestHot()
      nextHandCold()
    }
    let page = handCold
    let referenced = arena[page].extra.referenced
    if referenced && isInTest(page) {
      moveToHead(page, canPromote(page, size: arena[page].size) ? Self.hot : Self.coldInTest, size: arena[page].size)
    } else if referenced && resetsColdHand {
      moveToHead(page, Self.cold, size: arena[page].size)
    } else {
      victims.record(Victim(key: arena[page].key, size: arena[page].size))
      if isInTest(page) {
        setStatus(page, Self.ghost)
        handCold = newer(page)
      } else {
        removeFromClock(page)
        arena.remove(page)
      }
      while ghostBytes > ghostLimit {
        if handTest < 0 { nextHandTest() }
        guard handTest >= 0 else { break }
        testHandStep()
      }
    }
    nextHandCold()
  }

  /// Whether `candidate`, in its test period, becomes hot (Caffeine's `canPromote`): raises
  /// the cold target, then runs the hot hand until hot pages leave room for it; refused if the
  /// hot hand demotes nothing or the candidate's test period ends on the way.
  @inlinable
  mutating func canPromote(_ candidate: Int32, size: Int64) -> Bool {
    guard arena[candidate].extra.status != Self.outOfClock, isInTest(candidate) else { return false }
    adjustColdTarget(by: size)
    arena[candidate].extra.referenced = false
    while hotBytes + size > capacity - coldTarget {
      if !isInTest(candidate) { return false }
      if !hotHandRun(until: candidate) { return false }
    }
    return true
  }

  /// The hot hand (Caffeine's `runHandHot`): spares referenced hot pages, demotes the first
  /// unreferenced one and stops; ends the test periods of cold pages it passes. Returns whether
  /// it demoted a page.
  @inlinable
  mutating func hotHandRun(until trigger: Int32) -> Bool {
    var demoted = false
    while handHot >= 0, handHot != trigger {
      let page = handHot
      if arena[page].extra.status == Self.hot {
        if arena[page].extra.referenced {
          moveToHead(page, Self.hot, size: arena[page].size)
        } else {
          moveToHead(page, Self.cold, size: arena[page].size)
          demoted = true
          break
        }
      } else {
        handHot = newer(page)
        endTestPeriod(page)
      }
    }
    nextHandHot()
    return demoted
  }

  /// Demotes the page at the hot hand (or the oldest hot page) to cold.
  @inlinable
  mutating func demoteOldestHot() {
    nextHandHot()
    guard handHot >= 0 else { return }
    moveToHead(handHot, Self.cold, size: arena[handHot].size)
    nextHandHot()
  }

  /// One move of the test hand: ends the test period of the page under it.
  @inlinable
  mutating func testHandStep() {
    endTestPeriod(handTest)
    nextHandTest()
  }

  /// Ends `page`'s test period: a resident page stays cold, a remembered key is forgotten; the
  /// cold target rises if the page was referenced, else falls.
  @inlinable
  mutating func endTestPeriod(_ page: Int32) {
    guard isInTest(page) else { return }
    let size = arena[page].size
    if isResidentCold(page) {
      setStatus(page, Self.cold)
      adjustColdTarget(by: arena[page].extra.referenced ? size : -size)
    } else {
      removeFromClock(page)
      if page != protectedPage { arena.remove(page) }
      adjustColdTarget(by: -size)
    }
  }

  @inlinable
  mutating func adjustColdTarget(by amount: Int64) {
    coldTarget = min(max(coldTarget + amount, minCold), maxCold)
  }

  @inlinable
  mutating func nextHandCold() {
    guard coldCount > 0 else {
      handCold = -1
      return
    }
    if handCold < 0 { handCold = clock.tail }
    while !isResidentCold(handCold) { handCold = newer(handCold) }
  }

  @inlinable
  mutating func nextHandHot() {
    guard hotCount > 0 else {
      handHot = -1
      return
    }
    if handHot < 0 { handHot = clock.tail }
    while isCold(handHot) {
      let passed = handHot
      handHot = newer(passed)
      endTestPeriod(passed)
    }
    nextHandTest()
  }

  @inlinable
  mutating func nextHandTest() {
    guard inTestCount > 0 else {
      handTest = -1
      return
    }
    if handTest < 0 { handTest = handHot < 0 ? clock.tail : handHot }
    while !isInTest(handTest) { handTest = newer(handTest) }
  }

  @inlinable
  mutating func organizeHands() {
    nextHandCold()
    nextHandHot()
    nextHandTest()
  }

  /// Changes `page`'s status, keeping the per-status totals.
  @inlinable
  mutating func setStatus(_ page: Int32, _ status: UInt8) {
    let size = arena[page].size
    count(arena[page].extra.status, size: -size, objects: -1)
    arena[page].extra.status = status
    count(status, size: size, objects: 1)
  }

  @inlinable
  mutating func count(_ status: UInt8, size: Int64, objects: Int) {
    switch status {
    case Self.hot:
      hotBytes += size
      hotCount += objects
    case Self.cold:
      coldBytes += size
      coldCount += objects
    case Self.coldInTest:
      coldBytes += size
      coldCount += objects
      inTestCount += objects
    case Self.ghost:
      ghostBytes += size
      inTestCount += objects
    default:
      break
    }
  }

  /// Takes `page` out of the clock (hands on it move to the next newer page) and clears its
  /// reference bit; the slot stays allocated.
  @inlinable
  mutating func removeFromClock(_ page: Int32) {
    let next = clock.count > 1 ? newer(page) : -1
    if handCold == page { handCold = next }
    if handHot == page { handHot = next }
    if handTest == page { handTest = next }
    arena.unlink(page, from: &clock)
    setStatus(page, Self.outOfClock)
    arena[page].extra.referenced = false
  }

  /// Puts `page` at the clock's head with `status` and `size`, its reference bit cleared.
  @inlinable
  mutating func moveToHead(_ page: Int32, _ status: UInt8, size: Int64) {
    if arena[page].extra.status != Self.outOfClock { removeFromClock(page) }
    arena[page].size = size
    arena.pushFront(page, to: &clock)
    setStatus(page, status)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    if lastKey == key { lastKey = nil }
    let slot = arena.find(key)
    guard slot >= 0, isResident(slot) else { return nil }
    let victim = Victim(key: key, size: arena[slot].size)
    removeFromClock(slot)
    arena.remove(slot)
    organizeHands()
    return victim
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && isResident(slot)
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    var totals = (hot: Int64(0), cold: Int64(0), ghost: Int64(0), inTest: 0)
    try arena.checkList(clock, named: "clock") { node throws(InvariantViolation) in
      switch node.extra.status {
      case Self.hot: totals.hot += node.size
      case Self.cold: totals.cold += node.size
      case Self.coldInTest:
        totals.cold += node.size
        totals.inTest += 1
      case Self.ghost:
        totals.ghost += node.size
        totals.inTest += 1
      default: throw InvariantViolation("page \(node.key) in the clock is out of it")
      }
    }
    guard clock.count == arena.count else { throw InvariantViolation("clock holds \(clock.count) of \(arena.count)") }
    guard totals.hot == hotBytes, totals.cold == coldBytes, totals.ghost == ghostBytes, totals.inTest == inTestCount
    else { throw InvariantViolation("status totals \(totals) disagree with the counters") }
    guard ghostBytes <= max(ghostLimit, 0) || inTestCount == 0 else {
      throw InvariantViolation("\(ghostBytes) remembered > \(ghostLimit)")
    }
    guard coldTarget >= minCold, coldTarget <= maxCold else { throw InvariantViolation("cold target \(coldTarget)") }
    for (name, hand) in [("hot", handHot), ("cold", handCold), ("test", handTest)] where hand >= 0 {
      guard arena.isLive(hand) else { throw InvariantViolation("\(name) hand on a free slot") }
    }
    if handCold >= 0, !isResidentCold(handCold) { throw InvariantViolation("cold hand on a non-cold page") }
    if handHot >= 0, arena[handHot].extra.status != Self.hot { throw InvariantViolation("hot hand on a cold page") }
  }
}
