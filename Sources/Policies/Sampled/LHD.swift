import CacheCore

/// LHD (least hit density): ranks objects by the expected hits per byte-time they will still
/// earn, learned from hit and eviction histograms by age class, and evicts the lowest-ranked
/// of a random sample.
///
/// As libCacheSim's LHD (Beckmann et al.'s code): ages are request counts shifted by an
/// adaptive coarsening (initially 10 bits); each object's class is its recent hit-age
/// pattern (16 classes); eviction draws 8 random candidates (32 after 50 reconfigurations)
/// plus up to 8 recently admitted objects and takes the lowest density
/// hits[class][age] / size (+1 for explorer objects, 1 % of capacity); every 2^20 updates the
/// histograms decay by 0.9 and the densities are recomputed. All ranking arithmetic is 32-bit
/// float; randomness comes from the MMIX generator (seed 0 reproduces libCacheSim). Unlike
/// libCacheSim's LHD, a hit keeps the stored size (CacheLab's common rule). Origin:
/// Beckmann, Chen & Cidon, "LHD: Improving Cache Hit Rate by Maximizing Hit Density", NSDI
/// 2018; libCacheSim `LHD/`.
/// Memory: 36 B per object (node + bucket) + a 48-byte tag, plus 3.8 MB of histograms.
public struct LHD: EvictionPolicy, ~Copyable {
  public static let descriptor = PolicyDescriptor(
    name: "lhd",
    summary: "least hit density: evicts the sampled object with the fewest expected hits per byte (randomised)",
    origin: "Beckmann, Chen & Cidon, NSDI 2018; libCacheSim LHD",
    parameters: [
      ParameterSpec(
        "associativity", default: "32", .integer(1...256), help: "candidates sampled per eviction once trained"),
      ParameterSpec("admissions", default: "8", .integer(0...64), help: "recently admitted objects also considered"),
    ],
    memoryPerObject: "84 B (32 B node + 4 B bucket + 48 B tag) + 3.8 MB of histograms",
    isRandomized: true,
    libCacheSim: .counterparts([
      LibCacheSimCounterpart(
        parameters: "associativity=32,admissions=8", constructor: "LHD_init", randomised: true,
        reference: LibCacheSimReference("lhd"))
    ]))

  @usableFromInline static let maximumAge = 20_000
  @usableFromInline static let classes = 16
  @usableFromInline static let updatesPerReconfiguration = 1 << 20
  @usableFromInline static let exploreInverseProbability: UInt64 = 32

  /// Per-object ranking state, kept in a dense array for sampling (swap-with-last removal).
  @usableFromInline
  struct Tag {
    @usableFromInline var slot: Int32
    @usableFromInline var explorer: Bool
    @usableFromInline var size: Float
    @usableFromInline var timestamp: UInt64
    @usableFromInline var lastHitAge: UInt64
    @usableFromInline var lastLastHitAge: UInt64

    @inlinable
    init(slot: Int32, size: Float, timestamp: UInt64) {
      self.slot = slot
      explorer = false
      self.size = size
      self.timestamp = timestamp
      lastHitAge = 0
      lastLastHitAge = UInt64(LHD.maximumAge)
    }
  }

  /// Per-object state: the index of the object's tag.
  @usableFromInline var arena: SlotArena<Int32>
  @usableFromInline var tags: [Tag] = []
  @usableFromInline var hits: [Float]
  @usableFromInline var evictions: [Float]
  @usableFromInline var densities: [Float]
  @usableFromInline var recentlyAdmitted: [UInt64]
  @usableFromInline var recentlyAdmittedHead = 0
  @usableFromInline var timestamp: UInt64 = 0
  @usableFromInline var nextReconfiguration = LHD.updatesPerReconfiguration
  @usableFromInline var reconfigurations = 0
  @usableFromInline var ageCoarseningShift: UInt64 = 10
  @usableFromInline var ewmaObjects: Float = 0
  @usableFromInline var ewmaObjectsMass: Float = 0
  @usableFromInline var ewmaVictimDensity: Float = 0
  @usableFromInline var explorerBudget: Int64
  @usableFromInline var bytes: Int64 = 0
  @usableFromInline var random: MMIXRandom
  @usableFromInline let associativity: Int
  public let capacity: Int64

  public init(capacity: Int64, parameters: Parameters, context: PolicyContext) {
    self.capacity = capacity
    associativity = Int(parameters.integer("associativity"))
    recentlyAdmitted = [UInt64](repeating: .max, count: Int(parameters.integer("admissions")))
    explorerBudget = Int64(Float(capacity) * Float(0.01))
    random = MMIXRandom(seed: context.seed)
    let cells = Self.classes * Self.maximumAge
    hits = [Float](repeating: 0, count: cells)
    evictions = [Float](repeating: 0, count: cells)
    densities = [Float](repeating: 0, count: cells)
    for row in 0..<Self.classes {
      // libCacheSim's app class 1 occupies class ids 16...31.
      let numerator = Double(Self.classes + row + 1)
      for age in 0..<Self.maximumAge { densities[row * Self.maximumAge + age] = Float(numerator / Double(age + 1)) }
    }
    arena = SlotArena(initialCapacity: initialSlotCapacity(for: capacity))
    tags.reserveCapacity(initialSlotCapacity(for: capacity))
  }

  @inlinable public var occupiedBytes: Int64 { bytes }
  @inlinable public var objectCount: Int { tags.count }
  public var storageBytes: Int {
    arena.memoryFootprint + tags.count * MemoryLayout<Tag>.stride
      + (hits.count + evictions.count + densities.count) * 4 + recentlyAdmitted.count * 8
  }

  // MARK: Ranking

  @inlinable
  func age(_ tag: Tag) -> Int {
    let age = (timestamp &- tag.timestamp) >> ageCoarseningShift
    return age >= UInt64(Self.maximumAge) ? Self.maximumAge - 1 : Int(age)
  }

  @inlinable
  static func hitAgeClass(_ age: UInt64) -> Int {
    if age == 0 { return classes - 1 }
    var value = age
    var log = 0
    while value < UInt64(maximumAge) && log < classes - 1 {
      value <<= 1
      log += 1
    }
    return log
  }

  @inlinable
  func row(_ tag: Tag) -> Int {
    Self.hitAgeClass(tag.lastHitAge &+ tag.lastLastHitAge)
  }

  @inlinable
  func density(_ tag: Tag) -> Float {
    let age = age(tag)
    if age == Self.maximumAge - 1 { return -.greatestFiniteMagnitude }
    let density = densities[row(tag) * Self.maximumAge + age] / tag.size
    return tag.explorer ? Float(Double(density) + 1.0) : density
  }

  /// Records a hit (existing tag) or an admission, draws the explorer coin, advances time.
  @inlinable
  mutating func update(_ index: Int, isNew: Bool) {
    var tag = tags[index]
    if !isNew {
      let age = age(tag)
      hits[row(tag) * Self.maximumAge + age] += 1
      if tag.explorer { explorerBudget += Int64(tag.size) }
      tag.lastLastHitAge = tag.lastHitAge
      tag.lastHitAge = UInt64(age)
    }
    tag.timestamp = timestamp
    let explore = random.next() % Self.exploreInverseProbability == 0
    if explore && explorerBudget > 0 && reconfigurations < 50 {
      tag.explorer = true
      explorerBudget -= Int64(tag.size)
    } else {
      tag.explorer = false
    }
    tags[index] = tag
    if isNew && !explore && !recentlyAdmitted.isEmpty && density(tag) < ewmaVictimDensity {
      recentlyAdmitted[recentlyAdmittedHead % recentlyAdmitted.count] = arena[tag.slot].key
      recentlyAdmittedHead += 1
    }
    timestamp += 1
    nextReconfiguration -= 1
    if nextReconfiguration == 0 {
      reconfigure()
      nextReconfiguration = Self.updatesPerReconfiguration
      reconfigurations += 1
    }
  }

  // MARK: Requests

  @inlinable
  public mutating func access(_ request: Request) -> Bool {
    let slot = arena.find(request.key)
    guard slot >= 0 else { return false }
    update(Int(arena[slot].extra), isNew: false)
    return true
  }

  @inlinable
  public mutating func insert(_ request: Request) {
    let slot = arena.insert(key: request.key, size: request.size, extra: Int32(tags.count))
    tags.append(Tag(slot: slot, size: Float(request.size), timestamp: timestamp))
    bytes += request.size
    update(tags.count - 1, isNew: true)
  }

  @inlinable
  public mutating func evict<Sink: VictimSink>(collecting victims: inout Sink) {
    let candidates = reconfigurations > 50 ? associativity : 8
    var victim = -1
    var victimRank = Float.greatestFiniteMagnitude
    for _ in 0..<candidates {
      let index = Int(random.next() % UInt64(tags.count))
      let rank = density(tags[index])
      if rank < victimRank {
        victim = index
        victimRank = rank
      }
    }
    for admitted in 0..<recentlyAdmitted.count {
      let key = recentlyAdmitted[admitted]
      guard key != .max else { continue }
      let slot = arena.find(key)
      guard slot >= 0 else { continue }
      let index = Int(arena[slot].extra)
      let rank = density(tags[index])
      if rank < victimRank {
        victim = index
        victimRank = rank
      }
    }
    if victim < 0 { victim = tags.count - 1 }
    ewmaVictimDensity = Float(0.9) * ewmaVictimDensity + Float(0.100000024) * victimRank
    victims.record(release(victim, evicted: true))
  }

  /// Removes the object of tag `index` (swap-with-last), counting an eviction if `evicted`.
  @inlinable
  mutating func release(_ index: Int, evicted: Bool) -> Victim {
    let tag = tags[index]
    if evicted {
      evictions[row(tag) * Self.maximumAge + age(tag)] += 1
      if tag.explorer { explorerBudget += Int64(tag.size) }
    }
    let last = tags.removeLast()
    if index < tags.count {
      tags[index] = last
      arena[last.slot].extra = Int32(index)
    }
    let victim = Victim(key: arena[tag.slot].key, size: arena[tag.slot].size)
    bytes -= victim.size
    arena.remove(tag.slot)
    return victim
  }

  public mutating func remove(_ key: UInt64) -> Victim? {
    let slot = arena.find(key)
    return slot < 0 ? nil : release(Int(arena[slot].extra), evicted: false)
  }

  public func contains(_ key: UInt64) -> Bool { arena.contains(key) }

  @inlinable
  public func prefetch(_ key: UInt64, stage: Int) { arena.prefetch(key, stage: stage) }

  // MARK: Reconfiguration

  /// Decays the histograms, adapts the age coarsening, and recomputes hit densities.
  @usableFromInline
  mutating func reconfigure() {
    for cell in 0..<hits.count {
      hits[cell] *= 0.9
      evictions[cell] *= 0.9
    }
    adaptAgeCoarsening()
    modelHitDensity()
  }

  @usableFromInline
  mutating func adaptAgeCoarsening() {
    ewmaObjects = ewmaObjects * 0.9 + Float(tags.count)
    ewmaObjectsMass = ewmaObjectsMass * 0.9 + 1
    let objects = ewmaObjects / ewmaObjectsMass
    let optimal = Float(1.0 * Double(objects) / Double(Float(0.01) * Float(Self.maximumAge)))
    guard reconfigurations == 5 || reconfigurations == 25 else { return }
    var log2: UInt64 = 1
    while Float(1 << log2) < optimal { log2 += 1 }
    let delta = Int(log2) - Int(ageCoarseningShift)
    ageCoarseningShift = log2
    ewmaObjects *= 8
    ewmaObjectsMass *= 8
    let maximum = Self.maximumAge
    for row in 0..<Self.classes {
      let base = row * maximum
      for table in 0..<2 {
        func cell(_ age: Int) -> Float { table == 0 ? hits[base + age] : evictions[base + age] }
        func set(_ age: Int, _ value: Float) {
          if table == 0 { hits[base + age] = value } else { evictions[base + age] = value }
        }
        if delta < 0 {
          let stretch = -delta
          if (maximum >> stretch) <= maximum - 2 {
            for age in (maximum >> stretch)...(maximum - 2) { set(maximum - 1, cell(maximum - 1) + cell(age)) }
          }
          for age in stride(from: maximum - 2, through: 0, by: -1) {
            set(age, cell(age >> stretch) / Float(1 << stretch))
          }
        } else if delta > 0 {
          for age in 0..<(maximum >> delta) {
            var sum: Float = 0
            for offset in 0..<(1 << delta) { sum += cell((age << delta) + offset) }
            set(age, sum)
          }
          for age in (maximum >> delta)..<(maximum - 1) { set(age, 0) }
        }
      }
    }
  }

  @usableFromInline
  mutating func modelHitDensity() {
    let maximum = Self.maximumAge
    for row in 0..<Self.classes {
      let base = row * maximum
      var totalEvents = hits[base + maximum - 1] + evictions[base + maximum - 1]
      var totalHits = hits[base + maximum - 1]
      var lifetime = totalEvents
      for age in stride(from: maximum - 2, through: 0, by: -1) {
        totalHits += hits[base + age]
        totalEvents += hits[base + age] + evictions[base + age]
        lifetime += totalEvents
        densities[base + age] = totalEvents > 1e-5 ? totalHits / lifetime : 0
      }
    }
  }

  public func checkInvariants() throws(InvariantViolation) {
    try checkOccupancy()
    try arena.checkIndex()
    guard tags.count == arena.count else { throw InvariantViolation("\(tags.count) tags for \(arena.count) objects") }
    var total: Int64 = 0
    for (index, tag) in tags.enumerated() {
      guard arena.isLive(tag.slot), arena[tag.slot].extra == Int32(index) else {
        throw InvariantViolation("tag \(index) and slot \(tag.slot) disagree")
      }
      total += arena[tag.slot].size
    }
    guard total == bytes else { throw InvariantViolation("sizes sum to \(total), tracked \(bytes)") }
  }
}
