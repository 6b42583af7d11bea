import CacheCore

/// LIRS: low inter-reference recency set. Blocks with a short reuse distance (LIR) hold most
/// of the cache; the rest (HIR, 1 % of the capacity) is a FIFO-like queue Q, and the stack S
/// remembers recency for resident and non-resident blocks alike.
///
/// As libCacheSim's `LIRS.c` (byte version): the HIR budget is max(1, 1 % of the capacity);
/// a hit on a resident HIR block in S makes it LIR (demoting S's bottom LIR blocks into Q);
/// a hit on a block only in Q demotes LIR blocks as needed and re-enters it in S as HIR; a
/// miss on a non-resident block still in S makes it LIR; other misses enter as LIR while the
/// LIR budget allows, else as resident HIR. S's bottom is pruned down to an LIR block, and
/// after each request S is limited to twice the capacity in bytes by forgetting the oldest
/// non-resident blocks. Objects larger than a budget are not admitted. Origin: Jiang & Zhang,
/// "LIRS: An Efficient Low Inter-reference Recency Set Replacement Policy", SIGMETRICS 2002;
/// libCacheSim `LIRS.c`.
/// Memory: up to two 32-byte nodes + 4-byte buckets per object (its S entry and its Q
/// entry), plus one node per remembered non-resident block.
public struct LIRS: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lirs",
    summary: "low inter-reference recency set: reuse distance decides LIR vs HIR (1 % HIR queue)",
    origin: "Jiang & Zhang, SIGMETRICS 2002; libCacheSim LIRS.c",
    parameters: [
      ParameterSpec(
        "hir", default: "0.01", .real(0.000001...0.5), help: "share of the capacity for resident HIR blocks")
    ],
    memoryPerObject: "up to 72 B (an S and a Q entry, 36 B each) + 36 B per remembered non-resident block",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "hir=0.01", constructor: "LIRS_init",
        note: "libCacheSim's LIRS has no parameter; its HIR share is 1 %", reference: LibCacheSimReference("lirs"))
    ]))

  /// S entry state bits.
  @usableFromInline static let lir: UInt8 = 1
  @usableFromInline static let resident: UInt8 = 2
  /// Queue entry states: resident HIR in Q, or non-resident in NH.
  @usableFromInline static let inQueue: UInt8 = 0
  @usableFromInline static let nonResident: UInt8 = 1

  @usableFromInline var stack: SlotArena<UInt8>
  @usableFromInline var queues: SlotArena<UInt8>
  @usableFromInline var s = SlotList()
  @usableFromInline var q = SlotList()
  @usableFromInline var nh = SlotList()
  @usableFromInline var lirBytes: Int64 = 0
  @usableFromInline var lirCount = 0
  @usableFromInline let lirLimit: Int64
  @usableFromInline let hirLimit: Int64
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    hirLimit = max(1, Int64(Double(capacity) * parameters.real("hir")))
    lirLimit = capacity - hirLimit
    stack = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    queues = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { lirBytes + q.bytes }
  @inlinable public var objectCount: Int { lirCount + q.count }
  public var storageBytes: Int { stack.memoryFootprint + queues.memoryFootprint }

  // MARK: Helpers

  /// Removes S's bottom entries until an LIR block is at the bottom (or one entry is left).
  @inlinable
  mutating func prune() {
    while s.count >= 2 {
      if stack[s.tail].extra & Self.lir != 0 { return }
      dropStackBottom()
    }
  }

  /// Removes S's bottom HIR entry (and, if non-resident, its NH entry; a resident block
  /// keeps its Q entry).
  @inlinable
  mutating func dropStackBottom() {
    let bottom = s.tail
    if stack[bottom].extra & Self.resident == 0 {
      let shadow = queues.find(stack[bottom].key)
      if shadow >= 0, queues[shadow].extra == Self.nonResident { _ = queues.evict(shadow, from: &nh) }
    }
    _ = stack.evict(bottom, from: &s)
  }

  /// Evicts Q's oldest block; if S still knows it, it becomes non-resident there.
  @inlinable
  mutating func evictHIR<Sink: VictimSink>(collecting victims: inout Sink) {
    let slot = queues.popBack(from: &q)
    let key = queues[slot].key
    victims.record(Victim(key: key, size: queues[slot].size))
    let entry = stack.find(key)
    if entry >= 0 {
      stack[entry].extra &= ~Self.resident
      queues[slot].extra = Self.nonResident
      queues.pushFront(slot, to: &nh)
    } else {
      queues.remove(slot)
    }
  }

  /// Demotes S's bottom LIR block into Q (evicting from Q to make room), then prunes S.
  @inlinable
  mutating func evictLIR<Sink: VictimSink>(collecting victims: inout Sink) {
    guard !s.isEmpty else { return }
    let bottom = s.tail
    let key = stack[bottom].key
    let size = stack[bottom].size
    if stack[bottom].extra & Self.lir != 0 {
      lirBytes -= size
      lirCount -= 1
      _ = stack.evict(bottom, from: &s)
      if size <= hirLimit {
        while q.bytes + size > hirLimit, !q.isEmpty { evictHIR(collecting: &victims) }
        let slot = queues.insert(key: key, size: size, extra: Self.inQueue)
        queues.pushFront(slot, to: &q)
      } else {
        victims.record(Victim(key: key, size: size))
      }
    } else {
      dropStackBottom()
    }
    prune()
  }

  /// Forgets the oldest non-resident blocks while S holds more than twice the capacity.
  @inlinable
  mutating func limitStack() {
    while s.bytes > 2 * capacity, !nh.isEmpty {
      let slot = nh.tail
      let entry = stack.find(queues[slot].key)
      _ = queues.evict(slot, from: &nh)
      if entry >= 0 { _ = stack.evict(entry, from: &s) }
    }
  }

  @inlinable
  mutating func makeRoomForLIR<Sink: VictimSink>(_ size: Int64, collecting victims: inout Sink) {
    while lirBytes + size > lirLimit, lirCount > 0 { evictLIR(collecting: &victims) }
  }

  // MARK: Requests

  @usableFromInline
  enum Lookup { case hit, nonResidentInStack, absent }

  @inlinable
  mutating func lookup<Sink: VictimSink>(_ key: UInt64, collecting victims: inout Sink) -> Lookup {
    let entry = stack.find(key)
    let shadow = queues.find(key)
    let queued = shadow >= 0 && queues[shadow].extra == Self.inQueue
    if entry >= 0 { stack.moveToFront(entry, in: &s) }
    if queued { queues.moveToFront(shadow, in: &q) }
    if entry >= 0 {
      let state = stack[entry].extra
      if state & Self.lir != 0 {
        prune()
        return .hit
      }
      if state & Self.resident == 0 { return .nonResidentInStack }
      let size = stack[entry].size
      if queued { _ = queues.evict(shadow, from: &q) }
      makeRoomForLIR(size, collecting: &victims)
      let current = stack.find(key)
      guard current >= 0 else { return .hit }
      stack[current].extra = Self.lir | Self.resident
      lirBytes += size
      lirCount += 1
      return .hit
    }
    guard queued else { return .absent }
    let size = queues[shadow].size
    makeRoomForLIR(size, collecting: &victims)
    let slot = stack.insert(key: key, size: size, extra: 0)
    stack.pushFront(slot, to: &s)
    let still = queues.find(key)
    if still >= 0, queues[still].extra == Self.inQueue {
      stack[slot].extra = Self.resident
    } else if still < 0 {
      // Its own queue entry was evicted while demoting LIR blocks. LIRS.c (`hit_RD_HIRinQ`)
      // still enters it in S as resident: it occupies nothing, and its next access is a hit
      // that makes it LIR (the resident-HIR hit path above, with no Q entry to drop).
      stack[slot].extra = Self.resident
    }
    return .hit
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    var ignore = IgnoringVictims()
    let hit = lookup(request.key, collecting: &ignore) == .hit
    limitStack()
    return hit
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let found = lookup(request.key, collecting: &victims)
    let outcome =
      found == .hit
      ? Outcome.hit : admission.admits(request) ? miss(request, found, collecting: &victims) : Outcome.rejected
    limitStack()
    return outcome
  }

  @inlinable
  mutating func miss<Sink: VictimSink>(_ request: Request, _ found: Lookup, collecting victims: inout Sink) -> Outcome {
    let size = request.size
    if size > capacity { return .rejected }
    if found == .nonResidentInStack {
      let entry = stack.find(request.key)
      makeRoomForLIR(stack[entry].size, collecting: &victims)
      let shadow = queues.find(request.key)
      if shadow >= 0, queues[shadow].extra == Self.nonResident { _ = queues.evict(shadow, from: &nh) }
    } else {
      if size > lirLimit || size > hirLimit { return .rejected }
      if lirBytes + size > lirLimit && q.bytes + size > hirLimit {
        while q.bytes + size > hirLimit, !q.isEmpty { evictHIR(collecting: &victims) }
      }
    }
    while occupiedBytes + size > capacity { evictStep(request.key, found, size, collecting: &victims) }
    insert(request, found)
    return .inserted
  }

  @inlinable
  mutating func evictStep<Sink: VictimSink>(
    _ key: UInt64, _ found: Lookup, _ size: Int64, collecting victims: inout Sink
  ) {
    let before = occupiedBytes
    if found == .nonResidentInStack {
      while q.bytes >= hirLimit, !q.isEmpty { evictHIR(collecting: &victims) }
      evictLIR(collecting: &victims)
    } else if lirBytes + size > lirLimit && q.bytes + size > hirLimit && !q.isEmpty {
      evictHIR(collecting: &victims)
    }
    // Guarantee progress, except that a miss on a non-resident block in S goes on demoting
    // LIR blocks while there are any (LIRS.c's evict is called again until the object fits).
    if occupiedBytes == before, found != .nonResidentInStack || lirCount == 0 { evict(collecting: &victims) }
  }

  @inlinable
  mutating func insert(_ request: Request, _ found: Lookup) {
    let entry = found == .nonResidentInStack ? stack.find(request.key) : -1
    if entry >= 0 {
      stack[entry].extra = Self.lir | Self.resident
      lirBytes += stack[entry].size
      lirCount += 1
      return
    }
    let slot = stack.insert(key: request.key, size: request.size, extra: Self.resident)
    stack.pushFront(slot, to: &s)
    if lirBytes + request.size <= lirLimit {
      stack[slot].extra = Self.lir | Self.resident
      lirBytes += request.size
      lirCount += 1
    } else {
      let queued = queues.insert(key: request.key, size: request.size, extra: Self.inQueue)
      queues.pushFront(queued, to: &q)
    }
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    insert(request, .absent)
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    if !q.isEmpty {
      evictHIR(collecting: &victims)
    } else {
      var counter = CountingSink(victims)
      while counter.count == 0 && lirCount > 0 { evictLIR(collecting: &counter) }
      victims = counter.base
      if !q.isEmpty && counter.count == 0 { evictHIR(collecting: &victims) }
    }
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    var victim: Victim?
    let entry = stack.find(key)
    if entry >= 0 {
      if stack[entry].extra & Self.lir != 0 {
        lirBytes -= stack[entry].size
        lirCount -= 1
        victim = Victim(key: key, size: stack[entry].size)
      }
      _ = stack.evict(entry, from: &s)
    }
    let shadow = queues.find(key)
    if shadow >= 0 {
      if queues[shadow].extra == Self.inQueue {
        victim = queues.evict(shadow, from: &q)
      } else {
        _ = queues.evict(shadow, from: &nh)
      }
    }
    return victim
  }

  public func contains(_ key: UInt64) -> Bool {
    let entry = stack.find(key)
    if entry >= 0, stack[entry].extra & Self.lir != 0 { return true }
    let shadow = queues.find(key)
    return shadow >= 0 && queues[shadow].extra == Self.inQueue
  }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { stack.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try stack.checkIndex()
    try queues.checkIndex()
    var lir: Int64 = 0
    var lirs = 0
    try stack.checkList(s, named: "S") { node throws(InvariantViolation) in
      if node.extra & Self.lir != 0 {
        lir += node.size
        lirs += 1
      }
    }
    guard s.count == stack.count else { throw InvariantViolation("S holds \(s.count) of \(stack.count) entries") }
    guard lir == lirBytes, lirs == lirCount else {
      throw InvariantViolation("LIR blocks hold \(lir) bytes / \(lirs), tracked \(lirBytes) / \(lirCount)")
    }
    try queues.checkList(q, named: "Q") { node throws(InvariantViolation) in
      guard node.extra == Self.inQueue else { throw InvariantViolation("Q holds a non-resident entry") }
    }
    try queues.checkList(nh, named: "NH") { node throws(InvariantViolation) in
      guard node.extra == Self.nonResident else { throw InvariantViolation("NH holds a resident entry") }
    }
    guard q.count + nh.count == queues.count else {
      throw InvariantViolation("Q and NH hold \(q.count + nh.count) of \(queues.count) entries")
    }
    guard lirBytes <= lirLimit || lirCount <= 1 else {
      throw InvariantViolation("LIR bytes \(lirBytes) above \(lirLimit)")
    }
  }
}
