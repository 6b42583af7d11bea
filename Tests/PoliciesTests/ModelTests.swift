import CacheCore
import Policies
import TestSupport
import Testing

/// Straightforward array-based models of the classic policies, written independently
/// of the arena-based implementations, compared request by request.
struct ModelCache {
  enum Kind {
    case fifo, lru
    case clock(max: Int)
    case sieve
  }

  let kind: Kind
  let capacity: Int64
  /// Index 0 is the head (newest); the last element is the tail (oldest).
  var entries: [(key: UInt64, size: Int64, counter: Int)] = []
  var hand: Int?  // SIEVE: index of the next candidate, nil = tail

  var used: Int64 { entries.reduce(0) { $0 + $1.size } }

  mutating func serve(_ request: Request) -> Bool {
    if let index = entries.firstIndex(where: { $0.key == request.key }) {
      switch kind {
      case .fifo: break
      case .lru: entries.insert(entries.remove(at: index), at: 0)
      case .clock(let max): entries[index].counter = min(entries[index].counter + 1, max)
      case .sieve: entries[index].counter = 1
      }
      return true
    }
    guard request.size <= capacity else { return false }
    while used + request.size > capacity { evict() }
    entries.insert((request.key, request.size, 0), at: 0)
    if let current = hand { hand = current + 1 }  // everything shifted by one
    return false
  }

  /// Removes `key` if cached (not an eviction); SIEVE's hand is not modelled here.
  @discardableResult
  mutating func remove(_ key: UInt64) -> Bool {
    guard let index = entries.firstIndex(where: { $0.key == key }) else { return false }
    entries.remove(at: index)
    return true
  }

  mutating func evict() {
    switch kind {
    case .fifo, .lru:
      entries.removeLast()
    case .clock:
      while entries[entries.count - 1].counter > 0 {
        var tail = entries.removeLast()
        tail.counter -= 1
        entries.insert(tail, at: 0)
      }
      entries.removeLast()
    case .sieve:
      var index = hand ?? entries.count - 1
      while entries[index].counter > 0 {
        entries[index].counter = 0
        index = index == 0 ? entries.count - 1 : index - 1
      }
      entries.remove(at: index)
      hand = index == 0 ? nil : index - 1
    }
  }
}

@Suite struct ModelTests {
  static let cases: [(String, ModelCache.Kind)] = [
    ("fifo", .fifo), ("lru", .lru), ("clock", .clock(max: 1)), ("clock:bits=2", .clock(max: 3)), ("sieve", .sieve),
  ]

  @Test(arguments: 0..<cases.count, [false, true])
  func matchesTheModelRequestByRequest(caseIndex: Int, objectMode: Bool) throws {
    let (spec, kind) = Self.cases[caseIndex]
    let requests = SyntheticTraces.requests(count: 4000, objects: 300, sizes: objectMode ? nil : 1...64, seed: 11)
    for capacity: Int64 in objectMode ? [1, 2, 5, 17, 64, 150] : [64, 100, 500, 2000, 6000] {
      let driver = try PolicyDriver(spec, capacity: capacity)
      var model = ModelCache(kind: kind, capacity: capacity)
      for (index, request) in requests.enumerated() {
        let expected = model.serve(request)
        let actual = driver.serve(request)
        if expected != actual {
          Issue.record(
            "\(spec) capacity \(capacity): request \(index) key \(request.key) model hit=\(expected), policy hit=\(actual)"
          )
          return
        }
      }
      #expect(driver.simulation.occupiedBytes == model.used)
      #expect(driver.simulation.objectCount == model.entries.count)
    }
  }
}
