import CacheCore

extension TraceSlice {
  /// The sampling rate of SHARDS' fixed-size variant (Waldspurger et al., FAST 2015, §3.3) for
  /// at most `objects` sampled objects: starting from the whole key space, each newly sampled
  /// object enters a set ordered by key hash; whenever the set exceeds `objects`, the threshold
  /// drops to the largest hash in it and the objects at or above it leave the sample. The rate
  /// is the final threshold / 2^24 — the largest rate whose sample has at most `objects`
  /// distinct objects. One pass over `reader`'s keys; memory O(min(`objects`, objects seen)) —
  /// nothing is reserved up front, so a huge `objects` costs no more than the trace needs —
  /// and time O(log `objects`) per newly sampled object.
  public static func fixedSizeRate(
    objects: Int, reader: any TraceReader, batch: RequestBatch
  ) throws(TraceError) -> Double {
    precondition(objects > 0, "a fixed-size sample holds at least one object")
    var threshold: UInt32 = 1 << 24
    var sampled = Set<UInt64>(minimumCapacity: min(objects, 1 << 16) + 1)
    var heap = HashHeap()
    while try reader.read(into: batch) {
      batch.withRequests { requests in
        for request in requests where request.operation != .event {
          let hash = UInt32(truncatingIfNeeded: KeyHash.mix(request.key) & 0xFF_FFFF)
          guard hash < threshold, sampled.insert(request.key).inserted else { continue }
          heap.push(hash: hash, key: request.key)
          while sampled.count > objects, let top = heap.topHash {
            threshold = top
            while let next = heap.topHash, next >= threshold {
              sampled.remove(heap.pop())
            }
          }
        }
      }
    }
    return Double(threshold) / Double(1 << 24)
  }
}

/// A binary max-heap of (24-bit hash, key) pairs ordered by hash.
private struct HashHeap {
  private var hashes: [UInt32] = []
  private var keys: [UInt64] = []

  var topHash: UInt32? { hashes.first }

  mutating func push(hash: UInt32, key: UInt64) {
    hashes.append(hash)
    keys.append(key)
    var child = hashes.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard hashes[parent] < hashes[child] else { break }
      swapAt(parent, child)
      child = parent
    }
  }

  /// Removes the top pair and returns its key.
  mutating func pop() -> UInt64 {
    let key = keys[0]
    swapAt(0, hashes.count - 1)
    hashes.removeLast()
    keys.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < hashes.count else { break }
      let right = left + 1
      let larger = right < hashes.count && hashes[right] > hashes[left] ? right : left
      guard hashes[larger] > hashes[parent] else { break }
      swapAt(parent, larger)
      parent = larger
    }
    return key
  }

  private mutating func swapAt(_ a: Int, _ b: Int) {
    hashes.swapAt(a, b)
    keys.swapAt(a, b)
  }
}
