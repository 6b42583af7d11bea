import CacheCore

/// Clock2Q+: a small FIFO (10 %) in front of a main FIFO that works as a 1-bit CLOCK, with a
/// ghost FIFO of objects that left the small one. A hit in the small FIFO counts only once the
/// object has been there for a correlation window (`corr-window` × the FIFO's size, in
/// admissions); on eviction the small FIFO's oldest object moves to main if it was hit
/// `threshold` times, else leaves into the ghost; a miss remembered by the ghost goes
/// straight to main. Until the first eviction, a full small FIFO sends new objects to main.
/// Objects at least as large as the small FIFO are not admitted. As libCacheSim's
/// `Clock2QPlus.c` (fixed window). Origin: libCacheSim (Juncheng Yang), after 2Q (Johnson &
/// Shasha, VLDB 1994) and CLOCK.
/// Memory: 48-byte node + 4-byte bucket per object, 36 B per ghost entry.
public struct Clock2QPlus: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "clock2qplus",
    aliases: ["clock2q+"],
    summary: "small FIFO with a correlation window + ghost in front of a 1-bit CLOCK main queue",
    origin: "libCacheSim Clock2QPlus.c (after 2Q, Johnson & Shasha, VLDB 1994)",
    parameters: [
      ParameterSpec("small", default: "0.1", .real(0...1), help: "small FIFO share", aliases: ["fifo-size-ratio"]),
      ParameterSpec(
        "ghost", default: "0.9", .real(0...10), help: "ghost FIFO size, × the capacity", aliases: ["ghost-size-ratio"]),
      ParameterSpec(
        "threshold", default: "1", .integer(1...1_000_000), help: "small-FIFO hits that move an object to main",
        aliases: ["move-to-main-threshold"]),
      ParameterSpec(
        "corr-window", default: "0.5", .real(0...1_000_000),
        help: "hits within this × the small FIFO's size of admissions do not count", aliases: ["corr-window-ratio"]),
    ],
    memoryPerObject: "52 B (48 B node + 4 B bucket), plus 36 B per ghost entry",
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        constructor: "Clock2QPlus_init",
        peerParameters: "fifo-size-ratio=0.1,ghost-size-ratio=0.9,move-to-main-threshold=1,corr-window-ratio=0.5")
    ]))

  @usableFromInline struct State {
    @usableFromInline var admitted: Int64
    @usableFromInline var frequency: Int32
    @usableFromInline var inMain: Bool
    @inlinable init(admitted: Int64, frequency: Int32, inMain: Bool) {
      self.admitted = admitted
      self.frequency = frequency
      self.inMain = inMain
    }
  }

  @usableFromInline var arena: SlotArena<State>
  @usableFromInline var small = SlotList()
  @usableFromInline var main = SlotList()
  @usableFromInline var ghosts: SlotArena<Void>
  @usableFromInline var ghost = SlotList()
  @usableFromInline let smallCapacity: Int64
  @usableFromInline let mainCapacity: Int64
  @usableFromInline let ghostCapacity: Int64
  @usableFromInline let threshold: Int32
  @usableFromInline let window: Double
  /// Objects admitted to the small FIFO so far (its clock for the correlation window).
  @usableFromInline var admissions: Int64 = 0
  @usableFromInline var hasEvicted = false
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    smallCapacity = Int64(Double(capacity) * parameters.real("small"))
    mainCapacity = capacity - smallCapacity
    ghostCapacity = Int64(Double(capacity) * parameters.real("ghost"))
    threshold = Int32(parameters.integer("threshold"))
    window = Double(smallCapacity) * parameters.real("corr-window")
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    ghosts = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { small.bytes + main.bytes }
  @inlinable public var objectCount: Int { small.count + main.count }
  public var storageBytes: Int { arena.memoryFootprint + ghosts.memoryFootprint }

  /// A hit: counted in the small FIFO only after the correlation window.
  @inlinable
  mutating func hit(_ slot: Int32) {
    if arena[slot].extra.inMain || Double(admissions - arena[slot].extra.admitted) >= window {
      arena[slot].extra.frequency += 1
    }
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    hit(slot)
    return true
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    let slot = arena.find(request.key)
    if slot >= 0, !arena[slot].extra.inMain {
      hit(slot)
      return .hit
    }
    var ghostHit = false
    if ghostCapacity > 0 {
      let remembered = ghosts.find(request.key)
      if remembered >= 0 {
        _ = ghosts.evict(remembered, from: &ghost)
        ghostHit = true
      }
    }
    if slot >= 0 {
      hit(slot)
      return .hit
    }
    if !admission.admits(request) || request.size > smallCapacity { return .rejected }
    while occupiedBytes + request.size > capacity { evict(collecting: &victims) }
    return admit(request, ghostHit: ghostHit) ? .inserted : .rejected
  }

  @inlinable
  mutating func admit(_ request: Request, ghostHit: Bool) -> Bool {
    let toMain: Bool
    if ghostHit {
      toMain = true
    } else {
      if request.size >= smallCapacity { return false }
      toMain = !hasEvicted && small.bytes >= smallCapacity
    }
    if !toMain { admissions += 1 }
    let slot = arena.insert(
      key: request.key, size: request.size, extra: State(admitted: admissions, frequency: 0, inMain: toMain))
    if toMain { arena.pushFront(slot, to: &main) } else { arena.pushFront(slot, to: &small) }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    _ = admit(request, ghostHit: false)
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    hasEvicted = true
    if main.bytes > mainCapacity || small.bytes == 0 {
      evictMain(collecting: &victims)
    } else {
      evictSmall(collecting: &victims)
    }
  }

  /// The small FIFO's oldest objects move to main while hit often enough; the first that is
  /// not leaves into the ghost.
  @inlinable
  mutating func evictSmall<Sink: VictimSink>(collecting victims: inout Sink) {
    while !small.isEmpty {
      let slot = arena.popBack(from: &small)
      if arena[slot].extra.frequency >= threshold {
        arena[slot].extra.inMain = true
        arena[slot].extra.frequency = 0
        arena.pushFront(slot, to: &main)
        continue
      }
      let victim = Victim(key: arena[slot].key, size: arena[slot].size)
      arena.remove(slot)
      remember(victim)
      victims.record(victim)
      return
    }
  }

  /// CLOCK: main's oldest object goes round again with its bit cleared if it was hit, else leaves.
  @inlinable
  mutating func evictMain<Sink: VictimSink>(collecting victims: inout Sink) {
    while !main.isEmpty {
      let slot = arena.popBack(from: &main)
      if arena[slot].extra.frequency >= 1 {
        arena[slot].extra.frequency = 0
        arena.pushFront(slot, to: &main)
        continue
      }
      let victim = Victim(key: arena[slot].key, size: arena[slot].size)
      arena.remove(slot)
      victims.record(victim)
      return
    }
  }

  /// The ghost FIFO's `get`: remembers `victim`'s key, dropping the oldest to fit.
  @inlinable
  mutating func remember(_ victim: Victim) {
    guard ghostCapacity > 0, ghosts.find(victim.key) < 0, victim.size <= ghostCapacity else { return }
    while ghost.bytes + victim.size > ghostCapacity { _ = ghosts.evict(ghost.tail, from: &ghost) }
    let slot = ghosts.insert(key: victim.key, size: victim.size, extra: ())
    ghosts.pushFront(slot, to: &ghost)
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let remembered = ghosts.find(key)
    if remembered >= 0 { _ = ghosts.evict(remembered, from: &ghost) }
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    if arena[slot].extra.inMain { return arena.evict(slot, from: &main) }
    return arena.evict(slot, from: &small)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try arena.checkIndex()
    try ghosts.checkIndex()
    try arena.checkList(small, named: "small") { node throws(InvariantViolation) in
      guard !node.extra.inMain else { throw InvariantViolation("a main object is in the small FIFO") }
    }
    try arena.checkList(main, named: "main") { node throws(InvariantViolation) in
      guard node.extra.inMain else { throw InvariantViolation("a small-FIFO object is in main") }
    }
    guard small.count + main.count == arena.count else { throw InvariantViolation("lists miss objects") }
    guard occupiedBytes <= capacity else { throw InvariantViolation("occupied \(occupiedBytes) > \(capacity)") }
    try ghosts.checkSoleList(ghost, named: "ghost")
  }
}
