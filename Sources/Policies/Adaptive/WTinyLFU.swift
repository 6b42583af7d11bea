import CacheCore

/// Window TinyLFU: a small LRU admission window in front of a segmented-LRU main cache,
/// with a count-min sketch deciding whether a window victim may replace a main victim.
///
/// As Caffeine's simulator (`sketch.WindowTinyLfu`, static window): every request counts in
/// a 4-bit CountMin4 sketch with periodic halving; new objects enter the window (1 %); window
/// overflow moves objects to main's probation segment as candidates, each of which duels
/// probation's oldest object once: the candidate stays only if its estimated frequency is
/// strictly higher. A probation hit moves the object to the protected segment (80 % of main),
/// whose overflow demotes back to probation. In byte mode the sketch is sized by object count
/// once the cache is half full (as Caffeine does for weighted caches), and room still needed
/// after the duels comes from probation's (then protected's, then the window's) oldest.
/// With `adaptive=hill-climber` the window size adapts as in Caffeine's production cache and
/// its simulator's `HillClimberWindowTinyLfuPolicy` (simple climber): while the cache is full,
/// every `climber-sample` × capacity-in-objects requests the hit rate is compared with the
/// previous sample's; the window keeps growing (or shrinking) by a step of `climber-step` ×
/// capacity while the hit rate does not drop, reverses when it does, the step decays by
/// `climber-step-decay` per sample and restarts at full size when the hit rate moves by
/// `climber-restart` or more. Growing takes room from the protected segment and moves
/// probation's oldest objects into the window; shrinking moves the window's oldest to
/// probation's cold end. In object mode this is the simulator's algorithm exactly; in byte
/// mode steps are bytes, objects move until the step is covered, and "full" means the cache
/// has had to evict (and has not since fallen below half its capacity).
/// Origin: Einziger, Friedman & Manes, "TinyLFU: A Highly Efficient Cache Admission
/// Policy", ACM TOS 2017; Caffeine simulator `WindowTinyLfuPolicy` and
/// `HillClimberWindowTinyLfuPolicy`.
/// Memory: 36 B per object (node + bucket) plus the sketch (about 0.5 B per object-counter
/// set: one 64-bit word per object of capacity, rounded to a power of two).
public struct WTinyLFU: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "wtinylfu",
    aliases: ["w-tinylfu", "window-tinylfu"],
    summary: "LRU window + segmented LRU main with a count-min sketch admission filter",
    origin: "Einziger, Friedman & Manes, ACM TOS 2017; Caffeine simulator WindowTinyLfuPolicy",
    parameters: [
      ParameterSpec(
        "window", default: "0.01", .real(0.000001...0.999999), help: "admission window share of the capacity"),
      ParameterSpec("protected", default: "0.8", .real(0...1), help: "protected segment share of the main cache"),
      ParameterSpec(
        "counters", default: "1", .real(0.01...64), help: "sketch size as a multiple of the capacity in objects"),
      ParameterSpec("conservative", default: "false", .boolean, help: "conservative sketch update"),
      ParameterSpec(
        "adaptive", default: "none", .choice(["none", "hill-climber"]),
        help: "none: a fixed window; hill-climber: Caffeine's adaptive window (the climber-* parameters)"),
      ParameterSpec(
        "climber-step", default: "0.0625", .real(0.000001...1), help: "initial step as a share of the capacity",
        aliases: ["percent-pivot"]),
      ParameterSpec(
        "climber-sample", default: "10", .real(0.001...1000),
        help: "sample period in requests, as a multiple of the capacity in objects", aliases: ["percent-sample"]),
      ParameterSpec(
        "climber-step-decay", default: "0.98", .real(0...1), help: "step multiplier after each sample",
        aliases: ["step-decay-rate"]),
      ParameterSpec(
        "climber-sample-decay", default: "1", .real(0...1), help: "sample-period multiplier after each sample",
        aliases: ["sample-decay-rate"]),
      ParameterSpec(
        "climber-restart", default: "0.05", .real(0...1), help: "hit-rate change that restarts the climb",
        aliases: ["restart-threshold"]),
      ParameterSpec(
        "climber-tolerance", default: "0", .real(0...1), help: "hit-rate drop tolerated before turning around",
        aliases: ["tolerance"]),
    ],
    memoryPerObject: "36 B (32 B node + 4 B bucket) + ~8 B of sketch",
    libCacheSim: .none(
      reason:
        "CacheLab follows Caffeine's simulator (WindowTinyLfuPolicy); libCacheSim's WTinyLFU.c is a different design, compared as wtinylfu-lcs"
    ))

  @usableFromInline static let window: UInt8 = 0
  @usableFromInline static let probation: UInt8 = 1
  @usableFromInline static let protected: UInt8 = 2

  @usableFromInline var arena: SlotArena<UInt8>
  @usableFromInline var lists = [SlotList](repeating: SlotList(), count: 3)
  @usableFromInline var sketch: FrequencySketch
  /// Window overflow moved to probation during the current eviction, not yet dueled.
  @usableFromInline var candidates: [Int32] = []
  @usableFromInline var windowCapacity: Int64
  @usableFromInline var protectedCapacity: Int64
  /// The adaptive window's climber (nil: a fixed window).
  @usableFromInline var climber: HillClimber?
  /// The window's size as the climber counts it minus the bytes it holds (the fractions of
  /// steps not yet taken, as Caffeine's `windowSize` double keeps them).
  @usableFromInline var windowShift = 0.0
  /// Byte mode: the cache has evicted since it last held less than half its capacity.
  @usableFromInline var hasFilled = false
  @usableFromInline let objectMode: Bool
  @usableFromInline let lazySketch: Bool
  @usableFromInline let sketchMultiplier: Double
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    let main = Int64(Double(capacity) * (1.0 - parameters.real("window")))
    windowCapacity = capacity - main
    protectedCapacity = Int64(Double(main) * parameters.real("protected"))
    sketchMultiplier = parameters.real("counters")
    sketch = FrequencySketch(conservative: parameters.boolean("conservative"))
    objectMode = context.objectMode
    lazySketch = !context.objectMode
    if parameters.string("adaptive") == "hill-climber" {
      climber = HillClimber(
        stepShare: parameters.real("climber-step"), sampleMultiple: parameters.real("climber-sample"),
        stepDecay: parameters.real("climber-step-decay"), sampleDecay: parameters.real("climber-sample-decay"),
        restartThreshold: parameters.real("climber-restart"), tolerance: parameters.real("climber-tolerance"))
    }
    if context.objectMode { sketch.ensureCapacity(Int(sketchMultiplier * Double(capacity))) }
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    candidates.reserveCapacity(64)
  }

  @inlinable public var occupiedBytes: Int64 { lists[0].bytes + lists[1].bytes + lists[2].bytes }
  /// The window's current capacity (fixed unless `adaptive=hill-climber`). O(1).
  public var currentWindowCapacity: Int64 { windowCapacity }
  @inlinable public var objectCount: Int { arena.count }
  public var storageBytes: Int { arena.memoryFootprint + sketch.memoryFootprint + candidates.count * 4 }

  @inlinable
  mutating func move(_ slot: Int32, to list: UInt8) {
    arena.unlink(slot, from: &lists[Int(arena[slot].extra)])
    arena[slot].extra = list
    arena.pushFront(slot, to: &lists[Int(list)])
  }

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    sketch.increment(request.key)
    switch arena[slot].extra {
    case Self.window:
      arena.moveToFront(slot, in: &lists[0])
    case Self.probation:
      move(slot, to: Self.protected)
      while lists[2].bytes > protectedCapacity, !lists[2].isEmpty {
        move(lists[2].tail, to: Self.probation)
      }
    default:
      arena.moveToFront(slot, in: &lists[2])
    }
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Self.window)
    arena.pushFront(slot, to: &lists[0])
  }

  @inlinable
  public mutating func handle<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    guard climber != nil else { return serve(request, collecting: &victims, admission: admission) }
    let full = isFull
    let outcome = serve(request, collecting: &victims, admission: admission)
    if full { climb(hit: outcome == .hit) }
    return outcome
  }

  @inlinable
  mutating func serve<Sink: VictimSink, Gate: AdmissionCheck>(
    _ request: Request, collecting victims: inout Sink, admission: Gate
  ) -> Outcome {
    if access(request) { return .hit }
    guard admission.admits(request) else { return .rejected }
    if request.size > capacity {
      sketch.increment(request.key)
      return .rejected
    }
    insert(request)
    if lazySketch && occupiedBytes >= capacity >> 1 {
      sketch.ensureCapacity(Int(sketchMultiplier * Double(arena.count)))
    }
    sketch.increment(request.key)
    trim(collecting: &victims)
    return arena.contains(request.key) ? .inserted : .rejected
  }

  /// Whether the climber counts the next request: the cache holds its capacity in objects
  /// (object mode), or has had to evict (byte mode).
  @inlinable
  var isFull: Bool { objectMode ? Int64(arena.count) >= capacity : hasFilled }

  /// One request of a full cache for the climber; at the end of a sample, moves the window.
  @inlinable
  mutating func climb(hit: Bool) {
    if !climber!.isStarted { climber!.start(objects: Int64(arena.count), units: capacity) }
    let amount = climber!.record(hit: hit)
    if amount > 0 {
      growWindow(by: amount)
    } else if amount < 0 {
      shrinkWindow(by: -amount)
    }
  }

  /// Moves `amount` units of capacity from the protected segment to the window, filling it
  /// with probation's oldest objects (Caffeine's `increaseWindow`).
  @inlinable
  mutating func growWindow(by amount: Double) {
    guard protectedCapacity > 0 else { return }
    let quota = min(amount, Double(protectedCapacity))
    let level = Double(lists[0].bytes) + windowShift
    let steps = Int64(level + quota) - Int64(level)
    windowCapacity += steps
    protectedCapacity -= steps
    while lists[2].bytes > protectedCapacity, !lists[2].isEmpty { move(lists[2].tail, to: Self.probation) }
    let target = lists[0].bytes + steps
    while lists[0].bytes < target, !lists[1].isEmpty { move(lists[1].tail, to: Self.window) }
    windowShift = level + quota - Double(lists[0].bytes)
  }

  /// Moves `amount` units of capacity from the window to the protected segment, the window's
  /// oldest objects going to probation's cold end (Caffeine's `decreaseWindow`).
  @inlinable
  mutating func shrinkWindow(by amount: Double) {
    guard windowCapacity > 0 else { return }
    let quota = min(amount, Double(windowCapacity))
    let level = Double(lists[0].bytes) + windowShift
    let steps = Int64(level) - Int64(level - quota)
    windowCapacity -= steps
    protectedCapacity += steps
    let target = lists[0].bytes - steps
    while lists[0].bytes > target, !lists[0].isEmpty {
      let slot = lists[0].tail
      arena.unlink(slot, from: &lists[0])
      arena[slot].extra = Self.probation
      arena.pushBack(slot, to: &lists[1])
    }
    windowShift = level - quota - Double(lists[0].bytes)
  }

  /// Moves window overflow to probation, then lets each moved object duel probation's
  /// oldest while the cache is over capacity.
  @inlinable
  mutating func trim<Sink: VictimSink>(collecting victims: inout Sink) {
    candidates.removeAll(keepingCapacity: true)
    while lists[0].bytes > windowCapacity, !lists[0].isEmpty {
      let slot = lists[0].tail
      move(slot, to: Self.probation)
      candidates.append(slot)
    }
    if occupiedBytes > capacity { hasFilled = true }
    while occupiedBytes > capacity {
      guard let candidate = candidates.popLast() else {
        evict(collecting: &victims)
        continue
      }
      let victim = lists[1].tail
      if victim == candidate {
        victims.record(arena.evict(candidate, from: &lists[1]))
      } else if sketch.frequency(arena[candidate].key) > sketch.frequency(arena[victim].key) {
        if let index = candidates.firstIndex(of: victim) { candidates.remove(at: index) }
        victims.record(arena.evict(victim, from: &lists[1]))
      } else {
        victims.record(arena.evict(candidate, from: &lists[1]))
      }
    }
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let list = !lists[1].isEmpty ? 1 : (!lists[2].isEmpty ? 2 : 0)
    victims.record(arena.evict(lists[list].tail, from: &lists[list]))
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    guard slot >= 0 else { return nil }
    let victim = arena.evict(slot, from: &lists[Int(arena[slot].extra)])
    if occupiedBytes < capacity / 2 { hasFilled = false }
    return victim
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    try arena.checkPartition(lists, named: ["window", "probation", "protected"]) { Int($0.extra) }
    guard lists[2].bytes <= max(protectedCapacity, 0) || lists[2].count <= 1 else {
      throw InvariantViolation("protected holds \(lists[2].bytes) > \(protectedCapacity)")
    }
    guard windowCapacity >= 0, protectedCapacity >= 0, windowCapacity <= capacity else {
      throw InvariantViolation("window \(windowCapacity) and protected \(protectedCapacity) outside 0...\(capacity)")
    }
  }
}
