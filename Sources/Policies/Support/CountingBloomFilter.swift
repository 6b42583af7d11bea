import CPrefetch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libCacheSim's counting Bloom filter (`minimalIncrementCBF.c`) as its W-TinyLFU uses it:
/// k = 10 counters per key (double hashing of XXH64 with seeds 0x12345678 and 0x12344321),
/// sized for `entries` keys at 0.1 % error; an insertion increments all k counters (the
/// library's minimal-increment test has an empty body) unless the smallest is saturated; an
/// estimate is the smallest. Counters live in a dense array up to 16 Mi of them, else in a
/// sparse table of those in use (the library allocates them all, untouched pages staying
/// virtual). O(k) per operation, the k counters' memory loaded at once (their indices are
/// computed once, and each is prefetched before any is read); halving is O(counters in use).
public struct CountingBloomFilter: ~Copyable {
  @usableFromInline let hashes: Int
  @usableFromInline let counterCount: UInt32
  @usableFromInline var dense: [UInt32]
  @usableFromInline let sparse = SparseCounters()
  @usableFromInline let isDense: Bool

  public init(entries: Int32) {
    let bitsPerEntry = -log(0.001) / 0.480453013918201
    let hashes = Int((0.693147180559945 * bitsPerEntry).rounded(.up))
    var count = Int(min((bitsPerEntry * Double(entries)).rounded(.up), Double(Int32.max)))
    if count < hashes { count = hashes * 2 }
    precondition(hashes <= 16, "a key's counter indices are kept in a SIMD16")
    self.hashes = hashes
    counterCount = UInt32(count)
    isDense = count <= 1 << 24
    dense = isDense ? [UInt32](repeating: 0, count: count) : []
  }

  /// XXH64 of `key`'s 8 little-endian bytes with `seed`.
  @inlinable
  static func xxh64(_ key: UInt64, seed: UInt64) -> UInt64 {
    let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    let prime5: UInt64 = 0x27D4_EB2F_1656_67C5
    var hash = seed &+ prime5 &+ 8
    let lane = ((key &* prime2).rotatedLeft(31)) &* prime1
    hash ^= lane
    hash = hash.rotatedLeft(27) &* prime1 &+ prime4
    hash ^= hash >> 33
    hash = hash &* prime2
    hash ^= hash >> 29
    hash = hash &* prime3
    hash ^= hash >> 32
    return hash
  }

  /// The two 32-bit hashes whose combinations index `key`'s counters.
  @inlinable
  func hashPair(_ key: UInt64) -> (UInt32, UInt32) {
    (
      UInt32(truncatingIfNeeded: Self.xxh64(key, seed: 0x1234_5678)),
      UInt32(truncatingIfNeeded: Self.xxh64(key, seed: 0x1234_4321))
    )
  }

  @inlinable @inline(__always)
  func counter(_ index: UInt32) -> UInt32 { isDense ? dense[Int(index)] : sparse.value(index) }

  /// `key`'s counter indices (the first ``hashes`` lanes), each counter's memory already
  /// being loaded.
  @inlinable @inline(__always)
  func indices(_ key: UInt64) -> SIMD16<UInt32> {
    let (a, b) = hashPair(key)
    var indices = SIMD16<UInt32>()
    for step in 0..<hashes {
      let index = (a &+ UInt32(step) &* b) % counterCount
      indices[step] = index
      if isDense {
        dense.withUnsafeBufferPointer { cachelab_prefetch($0.baseAddress! + Int(index)) }
      } else {
        sparse.prefetch(index)
      }
    }
    return indices
  }

  /// The smallest of `key`'s counters.
  @inlinable
  public func estimate(_ key: UInt64) -> UInt32 { smallest(indices(key)) }

  /// The smallest of the counters at the first ``hashes`` lanes of `indices`.
  @inlinable @inline(__always)
  func smallest(_ indices: SIMD16<UInt32>) -> UInt32 {
    var smallest = UInt32.max
    for step in 0..<hashes { smallest = min(smallest, counter(indices[step])) }
    return smallest
  }

  /// Counts `key` once: every one of its counters grows unless the smallest is saturated.
  /// Hashes the key once.
  @inlinable
  public mutating func add(_ key: UInt64) {
    let indices = indices(key)
    guard smallest(indices) < .max else { return }
    for step in 0..<hashes {
      if isDense {
        dense[Int(indices[step])] &+= 1
      } else {
        sparse.increment(indices[step])
      }
    }
  }

  /// Halves every counter (libCacheSim's periodic reset).
  public mutating func halve() {
    if isDense {
      for index in dense.indices { dense[index] >>= 1 }
    } else {
      sparse.halve()
    }
  }

  /// Bytes the counters hold.
  public var memoryFootprint: Int { isDense ? dense.count * 4 : sparse.memoryFootprint }
}

extension UInt64 {
  @inlinable
  func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
