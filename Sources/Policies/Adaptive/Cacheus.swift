import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Cacheus: two experts, a scan-resistant LRU (SR-LRU) and a churn-resistant LFU (CR-LFU),
/// holding the same objects; each eviction draws which expert's victim goes, by weights
/// that a regretted eviction (a miss on a key in that expert's ghost list) lowers.
///
/// As libCacheSim's `Cacheus.c`, `SR_LRU.c` and `CR_LFU.c`:
/// - SR-LRU has two LRU lists that start at `capacity / 2` bytes each: SR for new objects
///   and R for objects requested twice, plus a history H (an LRU of keys, `capacity` bytes,
///   trimmed while it holds at least that much). A hit in SR moves the object to R, whose
///   oldest objects move to SR (marked demoted) while R is over its size; a miss on a key in
///   H enters R the same way; other misses enter SR (marked new), whose oldest objects
///   overflow to H (they are evictions). A miss on a key that entered H as new grows SR by
///   max(1, ⌊demoted / new⌋ + 0.5) bytes (capped at the occupancy − 1; R gets the rest).
///   The paper's opposite move (shrinking SR on a hit to a demoted object) never fires in
///   libCacheSim, which reads the flag from the freshly created copy, so it does not here.
///   An object that does not fit its list (R if H knows it, else SR) is not inserted, after
///   the evictions made for it.
/// - CR-LFU keeps per-frequency lists and evicts the *newest* object of the lowest
///   frequency; an object's count survives in H and resumes (count + 1) on a miss in H.
/// - Each eviction draws libCacheSim's next value (lehmer64 from 0xdeadbeef + `--seed`):
///   `(next % 100) / 100 < w_lru` takes SR-LRU's victim (SR's oldest, or R's when SR holds
///   no bytes) into the LRU ghost list, else CR-LFU's into the LFU ghost list; when both
///   experts name the same object it leaves no ghost. Ghost lists are LRUs of `capacity / 2`
///   bytes. Every miss multiplies the weight of the expert whose ghost holds the key by
///   exp(−lr), renormalises, and forgets the key in both ghosts.
/// - The learning rate lr starts at 0.001 + (next % 1000) / 1000 and is revisited every
///   `capacity` requests as current libCacheSim does: the hit rate is a whole division (0
///   unless every request hit), lr moves by ±|lr × Δlr| while it keeps changing, and after ten
///   revisits without improvement a rising hit rate redraws it.
///
/// Seed 0 reproduces the libcachesim package (each cache in a fresh thread). O(1) per request
/// except the lowest-frequency scan when that list empties (as libCacheSim's). Origin:
/// Rodriguez et al., "Learning Cache Replacement with CACHEUS", FAST 2021; libCacheSim
/// `Cacheus.c`.
/// Memory: 68 B (64 B node + 4 B bucket) per object and per history key, 36 B per ghost key,
/// 12 B per count in use (an array for counts below 1024).
public struct Cacheus: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "cacheus",
    summary: "SR-LRU and CR-LFU experts chosen by regret-learned weights (randomised)",
    origin: "Rodriguez et al., FAST 2021; libCacheSim Cacheus.c, SR_LRU.c, CR_LFU.c",
    memoryPerObject: "68 B (64 B node + 4 B bucket), history keys alike, 36 B per ghost key",
    isRandomized: true,
    libCacheSim: .counterparts([LibCacheSimCounterpart(constructor: "Cacheus_init", resetsGenerator: true)]))

  @usableFromInline static let sr: UInt8 = 0
  @usableFromInline static let r: UInt8 = 1
  @usableFromInline static let history: UInt8 = 2

  /// Per-key state: the SR-LRU list holding it, its CR-LFU count (kept in H after eviction)
  /// and size, and its neighbours in its frequency list (towards the first and the last).
  @usableFromInline
  struct State {
    @usableFromInline var place: UInt8
    @usableFromInline var frequency: Int64
    @usableFromInline var lfuSize: Int64
    @usableFromInline var earlier: Int32 = -1
    @usableFromInline var later: Int32 = -1
    /// SR-LRU's flags: entered SR as a new object (carried into H), or was demoted from R.
    @usableFromInline var isNew = false
    @usableFromInline var demoted = false

    @inlinable init(place: UInt8, frequency: Int64, lfuSize: Int64) {
      self.place = place
      self.frequency = frequency
      self.lfuSize = lfuSize
    }
  }

  /// The objects with one count, oldest first.
  @usableFromInline
  struct FrequencyList {
    @usableFromInline var first: Int32 = -1
    @usableFromInline var last: Int32 = -1
    @usableFromInline var count: Int32 = 0

    @inlinable init() {}
  }

  /// CR-LFU's lists by count: an array for counts below 1024, a dictionary (reserved for one
  /// list per cached object) above, so a growing top count never reallocates the table.
  @usableFromInline
  struct FrequencyTable {
    @usableFromInline var dense = [FrequencyList](repeating: FrequencyList(), count: 1024)
    @usableFromInline var sparse: [Int64: FrequencyList]

    init(reserving lists: Int) {
      sparse = Dictionary(minimumCapacity: lists)
      // One insertion and removal now, so the runtime's one-time type metadata for these
      // paths exists before the first count reaches the dictionary mid-replay.
      sparse.updateValue(FrequencyList(), forKey: -1)
      sparse.removeValue(forKey: -1)
    }

    /// The list of `count` (empty when none); storing an empty list above the array drops it.
    @inlinable
    subscript(count: Int64) -> FrequencyList {
      get { count < dense.count ? dense[Int(count)] : sparse[count] ?? FrequencyList() }
      set {
        if count < dense.count {
          dense[Int(count)] = newValue
        } else if newValue.count == 0 {
          sparse.removeValue(forKey: count)
        } else {
          sparse.updateValue(newValue, forKey: count)
        }
      }
    }

    /// Bytes of memory the table holds.
    var memoryFootprint: Int {
      (dense.count + sparse.capacity) * (MemoryLayout<FrequencyList>.stride + 8)
    }

    /// The counts with a non-empty list, in increasing order (for checks).
    var countsInUse: [Int64] {
      dense.indices.filter { dense[$0].count > 0 }.map(Int64.init) + sparse.keys.sorted()
    }
  }

  @usableFromInline var arena: SlotArena<State>
  /// SR, R and H; newest at each head.
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 3)
  /// CR-LFU's lists, indexed by count.
  @usableFromInline var frequencies: FrequencyTable
  /// The lowest count held (-1 once the last object left by eviction), and the highest seen.
  @usableFromInline var lowest: Int64 = 1
  @usableFromInline var highest: Int64 = 1
  @usableFromInline var lruGhosts: KeyFIFO
  @usableFromInline var lfuGhosts: KeyFIFO
  @usableFromInline var weightLRU = 0.5
  @usableFromInline var weightLFU = 0.5
  @usableFromInline var learningRate: Double
  @usableFromInline var previousLearningRate = 0.0
  @usableFromInline var previousHitRate = 0.0
  @usableFromInline var unlearnCount: Int64 = 0
  @usableFromInline var intervalHits: Int64 = 0
  @usableFromInline var requests: Int64 = 0
  /// Bytes SR and R may hold (SR-LRU's split, moved by misses on new objects remembered in H).
  @usableFromInline var srCapacity: Int64
  @usableFromInline var rCapacity: Int64
  /// SR-LRU's counts of new objects sent to H and of demoted objects still in SR.
  @usableFromInline var newInHistory: Int64 = 0
  @usableFromInline var demotedInSR: Int64 = 0
  @usableFromInline var random: Lehmer64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    srCapacity = capacity / 2
    rCapacity = capacity / 2
    random = Lehmer64(state: Lehmer64.libCacheSimState &+ context.seed)
    learningRate = 0.001 + Double(random.next() % 1000) / 1000
    let slots = initialSlotCapacity(for: capacity)
    arena = SlotArena(initialCapacity: 2 * slots)
    frequencies = FrequencyTable(reserving: slots)
    lruGhosts = KeyFIFO(capacity: capacity / 2, initialSlots: slots)
    lfuGhosts = KeyFIFO(capacity: capacity / 2, initialSlots: slots)
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes }
  @inlinable public var objectCount: Int { lists[0].count + lists[1].count }
  public var storageBytes: Int {
    arena.memoryFootprint + lruGhosts.memoryFootprint + lfuGhosts.memoryFootprint
      + frequencies.memoryFootprint
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let hit = lookup(request)
    finishRequest()
    return hit
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    defer { finishRequest() }
    if lookup(request) { return .hit }
    if !admission.admits(request) || request.size > capacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    if !fits(request) { return .rejected }
    add(request, collecting: &victims)
    return .inserted
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    guard fits(request) else { return }
    var ignored = IgnoringVictims()
    add(request, collecting: &ignored)
  }

  /// Counts the request; a hit promotes in SR-LRU and counts in CR-LFU, a miss updates the
  /// weights from the ghost lists and forgets the key there.
  @inlinable
  mutating func lookup(_ request: Request) -> Bool {
    requests += 1
    let slot = arena.find(request.key)
    if slot >= 0, arena[slot].extra.place != Self.history {
      if arena[slot].extra.place == Self.r {
        arena.moveToFront(slot, in: &lists[1])
      } else {
        promoteFromSR(slot)
      }
      let count = arena[slot].extra.frequency
      unlinkFrequency(slot)
      arena[slot].extra.frequency = count + 1
      highest = max(highest, count + 1)
      appendFrequency(slot)
      if lowest == count, frequencies[count].count == 0 { raiseLowest() }
      intervalHits += 1
      return true
    }
    let inLRUGhost = lruGhosts.contains(request.key)
    if inLRUGhost {
      weightLRU *= exp(-learningRate)
    } else if lfuGhosts.contains(request.key) {
      weightLFU *= exp(-learningRate)
    }
    weightLRU /= weightLRU + weightLFU
    weightLFU = 1 - weightLRU
    _ = lruGhosts.take(request.key)
    _ = lfuGhosts.take(request.key)
    return false
  }

  /// SR-LRU's `can_insert`: the object fits in R if H remembers it, else in SR.
  @inlinable
  func fits(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    return request.size <= (slot >= 0 && arena[slot].extra.place == Self.history ? rCapacity : srCapacity)
  }

  /// Moves R's oldest object to SR's head, marked demoted.
  @inlinable
  mutating func demoteOldestOfR() {
    let demoted = lists[1].tail
    arena.unlink(demoted, from: &lists[1])
    if !arena[demoted].extra.demoted {
      demotedInSR += 1
      arena[demoted].extra.demoted = true
    }
    arena[demoted].extra.isNew = false
    arena[demoted].extra.place = Self.sr
    arena.pushFront(demoted, to: &lists[0])
  }

  /// A hit in SR: the object goes to R's head, then R's oldest objects go to SR while R is
  /// over its size (libCacheSim inserts first, so the object itself can be demoted).
  @inlinable
  mutating func promoteFromSR(_ slot: Int32) {
    arena.unlink(slot, from: &lists[0])
    arena[slot].extra.place = Self.r
    arena[slot].extra.isNew = false
    arena[slot].extra.demoted = false
    arena.pushFront(slot, to: &lists[1])
    while lists[1].bytes > rCapacity, !lists[1].isEmpty { demoteOldestOfR() }
  }

  /// A miss on a key in H: R's oldest objects go to SR until the object fits, it enters R's
  /// head, and if it had entered SR as new, SR grows (libCacheSim's integer arithmetic).
  @inlinable
  mutating func promoteFromHistory(_ slot: Int32, size: Int64) {
    let wasNew = arena[slot].extra.isNew
    arena.unlink(slot, from: &lists[2])
    while lists[1].bytes + size > rCapacity, !lists[1].isEmpty { demoteOldestOfR() }
    arena[slot].size = size
    arena[slot].extra.place = Self.r
    arena[slot].extra.isNew = false
    arena[slot].extra.demoted = false
    arena.pushFront(slot, to: &lists[1])
    guard wasNew else { return }
    let ratio = UInt64(bitPattern: demotedInSR) / UInt64(bitPattern: max(newInHistory, 1))
    let step = max(1.0, Double(Int32(truncatingIfNeeded: ratio)) + 0.5)
    let grown = Double(srCapacity) + step
    let limit = occupiedBytes - 1
    srCapacity = grown > Double(limit) ? limit : Int64(grown)
    rCapacity = capacity - srCapacity
  }

  /// Inserts a missed object that fits (``fits(_:)``): its count resumes from H, it enters
  /// R if H knew it and SR otherwise, and SR's overflow goes to H.
  @inlinable
  mutating func add<Sink: VictimSink>(_ request: Request, collecting victims: inout Sink) {
    var slot = arena.find(request.key)
    if slot >= 0 {
      arena[slot].extra.frequency += 1
      arena[slot].extra.lfuSize = request.size
      promoteFromHistory(slot, size: request.size)
    } else {
      var state = State(place: Self.sr, frequency: 1, lfuSize: request.size)
      state.isNew = true
      slot = arena.insert(key: request.key, size: request.size, extra: state)
      arena.pushFront(slot, to: &lists[0])
    }
    let count = arena[slot].extra.frequency
    appendFrequency(slot)
    highest = max(highest, count)
    if count == 1 || lowest == -1 || lowest > count { lowest = count }
    while lists[0].bytes > srCapacity, !lists[0].isEmpty {
      let overflow = lists[0].tail
      victims.record(Victim(key: arena[overflow].key, size: arena[overflow].size))
      toHistory(overflow)
      removeFrequency(overflow)
    }
    trimHistory()
  }

  /// One libCacheSim eviction: one draw, then SR-LRU's or CR-LFU's victim leaves both experts
  /// for H and the chosen expert's ghost list.
  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    guard objectCount > 0 else { return }
    let lruVictim = lists[0].bytes == 0 && !lists[1].isEmpty ? lists[1].tail : lists[0].tail
    let lfuVictim = frequencies[lowest].last
    let pickLRU = Double(random.next() % 100) / 100.0 < weightLRU
    let victim = lruVictim == lfuVictim || pickLRU ? lruVictim : lfuVictim
    let key = arena[victim].key
    let size = arena[victim].size
    let lfuSize = arena[victim].extra.lfuSize
    victims.record(Victim(key: key, size: size))
    toHistory(victim)
    removeFrequency(victim)
    trimHistory()
    if lruVictim == lfuVictim { return }
    if pickLRU {
      lruGhosts.remember(key, size: size)
    } else {
      lfuGhosts.remember(key, size: lfuSize)
    }
  }

  /// Moves a cached object from SR or R to H's head; its count and "new" flag go with it.
  @inlinable
  mutating func toHistory(_ slot: Int32) {
    if arena[slot].extra.isNew { newInHistory += 1 }
    if arena[slot].extra.demoted {
      demotedInSR -= 1
      arena[slot].extra.demoted = false
    }
    arena.unlink(slot, from: &lists[Int(arena[slot].extra.place)])
    arena[slot].extra.place = Self.history
    arena.pushFront(slot, to: &lists[2])
  }

  /// Forgets H's oldest keys while H holds at least the capacity.
  @inlinable
  mutating func trimHistory() {
    while lists[2].bytes >= capacity, !lists[2].isEmpty { _ = arena.evict(lists[2].tail, from: &lists[2]) }
  }

  /// Appends `slot` to the list of its count.
  @inlinable
  mutating func appendFrequency(_ slot: Int32) {
    let count = arena[slot].extra.frequency
    var list = frequencies[count]
    arena[slot].extra.earlier = list.last
    arena[slot].extra.later = -1
    if list.last >= 0 { arena[list.last].extra.later = slot } else { list.first = slot }
    list.last = slot
    list.count += 1
    frequencies[count] = list
  }

  /// Takes `slot` out of the list of its count.
  @inlinable
  mutating func unlinkFrequency(_ slot: Int32) {
    let count = arena[slot].extra.frequency
    var list = frequencies[count]
    let earlier = arena[slot].extra.earlier
    let later = arena[slot].extra.later
    if earlier >= 0 { arena[earlier].extra.later = later } else { list.first = later }
    if later >= 0 { arena[later].extra.earlier = earlier } else { list.last = earlier }
    list.count -= 1
    frequencies[count] = list
  }

  /// CR-LFU's `remove`: unlinks, and moves the lowest count up if its list emptied (to -1 when
  /// the cache is empty: libCacheSim leaves a stale count there and then crashes).
  @inlinable
  mutating func removeFrequency(_ slot: Int32) {
    unlinkFrequency(slot)
    if frequencies[lowest].count == 0 { raiseLowest() }
  }

  /// The next count above the lowest whose list is not empty, or -1 when none is.
  @inlinable
  mutating func raiseLowest() {
    var count = lowest + 1
    while count <= highest {
      if frequencies[count].count > 0 {
        lowest = count
        return
      }
      count += 1
    }
    lowest = -1
  }

  /// Revisits the learning rate every `capacity` requests, with libCacheSim's arithmetic.
  @inlinable
  mutating func finishRequest() {
    guard capacity > 0, requests % capacity == 0 else { return }
    let hitRate = Double(UInt64(intervalHits) / UInt64(capacity))
    let hitRateChange = hitRate - previousHitRate
    let rateChange = learningRate - previousLearningRate
    previousLearningRate = learningRate
    previousHitRate = hitRate
    if rateChange != 0 {
      let sign: Double = hitRateChange / rateChange > 0 ? 1 : -1
      let step = sign * abs(learningRate * rateChange)
      learningRate = learningRate + step > 0.001 ? learningRate + step : 0.0001
      unlearnCount = 0
    } else if hitRate == 0 || hitRateChange <= 0 {
      unlearnCount += 1
    } else if unlearnCount >= 10 {
      unlearnCount = 0
      learningRate = 0.001 + Double(random.next() % 1000) / 1000
    }
    intervalHits = 0
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0, arena[slot].extra.place != Self.history else { return nil }
    let victim = Victim(key: key, size: arena[slot].size)
    toHistory(slot)
    removeFrequency(slot)
    trimHistory()
    return victim
  }

  public func contains(_ key: UInt64) -> Bool {
    let slot = arena.find(key)
    return slot >= 0 && arena[slot].extra.place != Self.history
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(lists, named: ["SR", "R", "H"]) { Int($0.extra.place) }
    try lruGhosts.check(named: "LRU ghosts")
    try lfuGhosts.check(named: "LFU ghosts")
    var listed = 0
    for count in frequencies.countsInUse {
      var slot = frequencies[count].first
      var previous: Int32 = -1
      var length: Int32 = 0
      while slot >= 0 {
        let state = arena[slot].extra
        guard state.place != Self.history, state.frequency == count, state.earlier == previous else {
          throw InvariantViolation("frequency list \(count) holds a misplaced entry at slot \(slot)")
        }
        length += 1
        previous = slot
        slot = state.later
      }
      guard previous == frequencies[count].last, length == frequencies[count].count else {
        throw InvariantViolation("frequency list \(count): walked \(length), recorded \(frequencies[count].count)")
      }
      listed += Int(length)
    }
    guard listed == objectCount else { throw InvariantViolation("\(listed) counted objects for \(objectCount) cached") }
    if objectCount > 0, lowest < 1 || frequencies[lowest].count == 0 {
      throw InvariantViolation("the lowest count \(lowest) has no objects")
    }
    guard lists[2].bytes < max(capacity, 1) || lists[2].isEmpty else {
      throw InvariantViolation("history holds \(lists[2].bytes) ≥ \(capacity)")
    }
  }
}
