import CPrefetch
import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libCacheSim's object hash table (`chainedHashTableV2`) as a sampling policy's only store, so
/// that a random sample picks the object the library would: buckets by XXH3-64 of the 8-byte
/// key, new objects at the head of their chain, the table doubled before an insert that finds
/// more than two objects per bucket, halved by a random draw that meets more than 32 empty
/// buckets (the count is not reset after halving), and every rehash walking the old buckets in
/// order, moving each chain's objects head first to the head of their new chain.
///
/// O(1) expected per lookup, insertion and removal (a chain walk); allocation-free once the
/// object store and the largest bucket table have been reached. The store keeps keys, chain
/// links and the rest of each object in three arrays, so that a chain walk loads 12 bytes per
/// object instead of a whole record: chains average 1–2 objects, and their links stay in a
/// core's private cache at a million objects where whole records would not. Bucket tables
/// are zero-filled on demand (`calloc`), so a large initial table costs only the pages its
/// buckets touch, as the library's does.
public struct LibCacheSimTable<Payload>: ~Copyable {
  /// An object's size (-1 once freed) and the policy's data.
  @usableFromInline
  struct Entry {
    @usableFromInline var size: Int64
    @usableFromInline var payload: Payload

    @inlinable init(size: Int64, payload: Payload) {
      self.size = size
      self.payload = payload
    }
  }

  /// Each slot's key, the next slot of its chain (-1: last; in the free list, the next free
  /// slot) and its entry; `slotCount` slots used, room for `slotCapacity`.
  @usableFromInline var keys: UnsafeMutablePointer<UInt64>
  @usableFromInline var links: UnsafeMutablePointer<Int32>
  @usableFromInline var entries: UnsafeMutablePointer<Entry>
  @usableFromInline var slotCount = 0
  @usableFromInline var slotCapacity: Int
  @usableFromInline var freeHead: Int32 = -1
  /// Chain heads of the current table as slot + 1 (0: empty), its first `1 << power` entries
  /// in use, and the rehash target; each with its capacity in entries.
  @usableFromInline var heads: UnsafeMutablePointer<Int32>
  @usableFromInline var headsCapacity: Int
  @usableFromInline var spare: UnsafeMutablePointer<Int32>?
  @usableFromInline var spareCapacity = 0
  @usableFromInline var power: Int
  @usableFromInline var count = 0
  /// Total size of the stored objects.
  @usableFromInline var bytes: Int64 = 0
  /// ``randomSlots(_:_:)``'s results (first each draw's chain head) and each draw's value
  /// for its place in the chain, with room for `drawCapacity` draws.
  @usableFromInline var drawnSlots: UnsafeMutablePointer<Int32>
  @usableFromInline var drawnValues: UnsafeMutablePointer<UInt64>
  @usableFromInline var drawCapacity: Int

  /// A table of `1 << power` buckets, with room for `capacity` objects before its store grows
  /// and for `samples` draws of ``randomSlots(_:_:)`` before its buffers grow.
  init(power: Int, capacity: Int, samples: Int = 1) {
    self.power = power
    heads = Self.zeroed(1 << power)
    headsCapacity = 1 << power
    slotCapacity = max(capacity, 16)
    keys = .allocate(capacity: slotCapacity)
    links = .allocate(capacity: slotCapacity)
    entries = .allocate(capacity: slotCapacity)
    drawCapacity = max(samples, 1)
    drawnSlots = .allocate(capacity: drawCapacity)
    drawnValues = .allocate(capacity: drawCapacity)
  }

  deinit {
    keys.deallocate()
    links.deallocate()
    entries.deinitialize(count: slotCount)
    entries.deallocate()
    free(heads)
    free(spare)
    drawnSlots.deallocate()
    drawnValues.deallocate()
  }

  /// `count` zeroed entries, paged in as they are touched.
  static func zeroed(_ count: Int) -> UnsafeMutablePointer<Int32> {
    guard let memory = calloc(count, MemoryLayout<Int32>.stride) else {
      fatalError("out of memory for \(count) buckets")
    }
    return memory.bindMemory(to: Int32.self, capacity: count)
  }

  /// libCacheSim's `get_hash_value_int_64` with XXH3: XXH3-64 (seed 0, default secret) of the
  /// key's 8 little-endian bytes.
  @inlinable @inline(__always)
  static func hash(_ key: UInt64) -> UInt64 {
    let bitflip: UInt64 = 0x1cad_21f7_2c81_017c ^ 0xdb97_9083_e96d_d4de
    let multiplier: UInt64 = 0x9FB2_1C65_1E98_DF25
    var h = ((key >> 32) | (key << 32)) ^ bitflip
    h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40))
    h = h &* multiplier
    h ^= (h >> 35) &+ 8
    h = h &* multiplier
    return h ^ (h >> 28)
  }

  @inlinable @inline(__always)
  func bucket(of key: UInt64) -> Int { Int(truncatingIfNeeded: Self.hash(key) & UInt64((1 << power) - 1)) }

  /// The slot holding `key`, or -1.
  @inlinable
  func find(_ key: UInt64) -> Int32 {
    var slot = heads[bucket(of: key)] - 1
    while slot >= 0 {
      if keys[Int(slot)] == key { return slot }
      slot = links[Int(slot)]
    }
    return -1
  }

  /// Prefetch stage 1 (the bucket), 2 (the chain's first key and link) or 3 (the entry a hit
  /// on the first object will update, else the chain's second key) of a lookup of `key`;
  /// other stages do nothing. Changes nothing.
  @inlinable @inline(__always)
  func prefetch(_ key: UInt64, stage: Int) {
    if stage == 1 {
      cachelab_prefetch(heads + bucket(of: key))
    } else if stage == 2 {
      let slot = heads[bucket(of: key)] - 1
      if slot >= 0 {
        cachelab_prefetch(keys + Int(slot))
        cachelab_prefetch(links + Int(slot))
      }
    } else if stage == 3 {
      let slot = heads[bucket(of: key)] - 1
      guard slot >= 0 else { return }
      if keys[Int(slot)] == key {
        cachelab_prefetch(entries + Int(slot))
      } else {
        let next = links[Int(slot)]
        if next >= 0 { cachelab_prefetch(keys + Int(next)) }
      }
    }
  }

  /// The entry (size and policy data) of the object at `slot`.
  @inlinable
  subscript(slot: Int32) -> Entry {
    unsafeAddress { UnsafePointer(entries + Int(slot)) }
    unsafeMutableAddress { entries + Int(slot) }
  }

  /// Adds `key` (absent) at the head of its chain, doubling the table first when it holds more
  /// than two objects per bucket; returns its slot.
  @inlinable
  mutating func insert(key: UInt64, size: Int64, payload: Payload) -> Int32 {
    if count > (1 << power) * 2 { rehash(to: power + 1) }
    let b = bucket(of: key)
    let slot: Int32
    if freeHead >= 0 {
      slot = freeHead
      freeHead = links[Int(slot)]
      entries[Int(slot)] = Entry(size: size, payload: payload)
    } else {
      if slotCount == slotCapacity { growSlots() }
      slot = Int32(slotCount)
      (entries + slotCount).initialize(to: Entry(size: size, payload: payload))
      slotCount += 1
    }
    keys[Int(slot)] = key
    links[Int(slot)] = heads[b] - 1
    heads[b] = slot + 1
    count += 1
    bytes += size
    return slot
  }

  /// Doubles the slot store, moving every slot.
  @usableFromInline
  mutating func growSlots() {
    slotCapacity *= 2
    Self.move(&keys, count: slotCount, capacity: slotCapacity)
    Self.move(&links, count: slotCount, capacity: slotCapacity)
    Self.move(&entries, count: slotCount, capacity: slotCapacity)
  }

  /// Moves `count` elements from `buffer` into a new buffer of `capacity`, freeing the old one.
  @usableFromInline
  static func move<Element>(_ buffer: inout UnsafeMutablePointer<Element>, count: Int, capacity: Int) {
    let moved = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    moved.moveInitialize(from: buffer, count: count)
    buffer.deallocate()
    buffer = moved
  }

  /// Takes the object at `slot` out of its chain and frees the slot.
  @inlinable
  mutating func remove(_ slot: Int32) {
    let b = bucket(of: keys[Int(slot)])
    let next = links[Int(slot)]
    if heads[b] == slot + 1 {
      heads[b] = next + 1
    } else {
      var previous = heads[b] - 1
      while links[Int(previous)] != slot { previous = links[Int(previous)] }
      links[Int(previous)] = next
    }
    bytes -= entries[Int(slot)].size
    links[Int(slot)] = freeHead
    entries[Int(slot)].size = -1
    freeHead = slot
    count -= 1
  }

  /// Removes the object at `slot` and returns it as a victim.
  @inlinable
  mutating func take(_ slot: Int32) -> Victim {
    let victim = Victim(key: keys[Int(slot)], size: entries[Int(slot)].size)
    remove(slot)
    return victim
  }

  /// Removes `key` if stored.
  @inlinable
  mutating func take(key: UInt64) -> Victim? {
    let slot = find(key)
    return slot < 0 ? nil : take(slot)
  }

  /// libCacheSim's `hashtable_rand_obj`: draws buckets until one is not empty (halving the
  /// table at every empty draw after the 32nd), then one of its chain's objects. The table
  /// must hold an object. The one-draw reference ``randomSlots(_:_:)`` is tested against.
  @inlinable
  mutating func randomSlot(_ random: inout Lehmer64) -> Int32 {
    var position = Int(truncatingIfNeeded: random.next() & UInt64((1 << power) - 1))
    var emptyDraws = 0
    while heads[position] == 0 {
      emptyDraws += 1
      if emptyDraws > 32 { rehash(to: power - 1) }
      position = Int(truncatingIfNeeded: random.next() & UInt64((1 << power) - 1))
    }
    return chainObject(from: heads[position] - 1, value: random.next())
  }

  /// The object of the chain starting at `head` that a draw of `value` picks: the
  /// (`value` mod chain length)th. O(chain length).
  @inlinable @inline(__always)
  func chainObject(from head: Int32, value: UInt64) -> Int32 {
    var length: UInt64 = 0
    var slot = head
    while slot >= 0 {
      length += 1
      slot = links[Int(slot)]
    }
    var index = value % length
    slot = head
    while index > 0 {
      slot = links[Int(slot)]
      index -= 1
    }
    return slot
  }

  /// `count` successive ``randomSlot(_:)`` draws: the same objects in the same order, the
  /// generator left where those draws leave it. Every bucket is drawn before any chain is
  /// walked, and each chain's first link is prefetched as its bucket is drawn, then each drawn
  /// object's key and entry, so the draws' memory misses overlap instead of following one
  /// another. The buffer stays valid until
  /// the next call or change of the table. O(count) expected; allocates only when `count`
  /// exceeds every earlier count and the `samples` given at creation.
  @inlinable
  mutating func randomSlots(_ count: Int, _ random: inout Lehmer64) -> UnsafeBufferPointer<Int32> {
    if count > drawCapacity { growDraws(to: count) }
    // Draws before `resolved` have their objects; later ones only their chain's head.
    var resolved = 0
    for draw in 0..<count {
      var position = Int(truncatingIfNeeded: random.next() & UInt64((1 << power) - 1))
      var emptyDraws = 0
      while heads[position] == 0 {
        emptyDraws += 1
        if emptyDraws > 32 {
          // A rehash relinks the chains: walk the pending draws' chains as they are now.
          resolveDraws(resolved..<draw)
          resolved = draw
          rehash(to: power - 1)
        }
        position = Int(truncatingIfNeeded: random.next() & UInt64((1 << power) - 1))
      }
      let head = heads[position] - 1
      cachelab_prefetch(links + Int(head))
      drawnSlots[draw] = head
      drawnValues[draw] = random.next()
    }
    resolveDraws(resolved..<count)
    return UnsafeBufferPointer(start: drawnSlots, count: count)
  }

  /// Replaces each draw's chain head by the chain's object its value picks, as
  /// ``randomSlot(_:)`` does after drawing the bucket, and starts loading that object's entry
  /// (what the policy compares) and, for a few draws, its key (what evicting it reads; for
  /// many, one victim's key is not worth a load per draw).
  @inlinable
  func resolveDraws(_ draws: Range<Int>) {
    let loadsKeys = draws.count <= 4
    for draw in draws {
      let slot = chainObject(from: drawnSlots[draw], value: drawnValues[draw])
      drawnSlots[draw] = slot
      cachelab_prefetch(entries + Int(slot))
      if loadsKeys { cachelab_prefetch(keys + Int(slot)) }
    }
  }

  /// Replaces the draw buffers by ones with room for `count` draws.
  @usableFromInline
  mutating func growDraws(to count: Int) {
    drawnSlots.deallocate()
    drawnValues.deallocate()
    drawCapacity = count
    drawnSlots = .allocate(capacity: count)
    drawnValues = .allocate(capacity: count)
  }

  /// Rebuilds the chains for `1 << newPower` buckets in libCacheSim's order.
  @usableFromInline
  mutating func rehash(to newPower: Int) {
    let oldSize = 1 << power
    let newSize = 1 << newPower
    if spareCapacity < newSize {
      free(spare)
      spare = Self.zeroed(newSize)
      spareCapacity = newSize
    } else {
      spare!.update(repeating: 0, count: newSize)
    }
    let target = spare!
    let mask = UInt64(newSize - 1)
    for index in 0..<oldSize {
      var slot = heads[index] - 1
      while slot >= 0 {
        let next = links[Int(slot)]
        let b = Int(truncatingIfNeeded: Self.hash(keys[Int(slot)]) & mask)
        links[Int(slot)] = target[b] - 1
        target[b] = slot + 1
        slot = next
      }
    }
    spare = heads
    heads = target
    swap(&headsCapacity, &spareCapacity)
    power = newPower
  }

  /// Bytes of memory the object store, bucket tables and draw buffers hold.
  var memoryFootprint: Int {
    slotCapacity * (12 + MemoryLayout<Entry>.stride) + (headsCapacity + spareCapacity) * 4 + drawCapacity * 12
  }

  /// Checks that every stored object is found through its key's chain and that the store
  /// holds exactly `count` objects. O(objects × chain length); for tests.
  func check() throws(InvariantViolation) {
    var live = 0
    for slot in 0..<slotCount where entries[slot].size >= 0 {
      live += 1
      var walked = 0
      var cursor = heads[bucket(of: keys[slot])] - 1
      while cursor >= 0, cursor != Int32(slot) {
        walked += 1
        guard walked <= count else { throw InvariantViolation("a chain cycles") }
        cursor = links[Int(cursor)]
      }
      guard cursor == Int32(slot) else { throw InvariantViolation("slot \(slot) is not in its key's chain") }
    }
    guard live == count else { throw InvariantViolation("\(live) stored objects, \(count) counted") }
  }
}
