import CacheCore

/// Delivers another reader's requests in time order, ties in file order, when no request is
/// more than `window` later in the file than an earlier-timed one — as in access logs, which
/// servers write when a response ends, and captures, which list entries as they finish.
///
/// A request held back is kept until a request `window` newer has been read (or `maximumHeld`
/// are held, or the input ends). A request that arrives after a later-timed one was already
/// delivered keeps its place, with its time raised to that one's; ``notes`` counts both kinds.
/// Memory: the held requests (at most `maximumHeld`); cost O(1) per request read in time
/// order, O(log late) per one read after a later-timed one.
final class TimeOrderedReader: TraceReader {
  typealias Entry = (time: Int64, sequence: Int64, slot: Int32)
  private let inner: any TraceReader
  private let window: Int64
  private let maximumHeld: Int
  private let incoming: RequestBatch
  private var incomingIndex = 0
  private var innerDone = false
  /// Held requests read in time order: a ring of entries, already sorted (each joined at
  /// the tail no earlier than the one before).
  @exclusivity(unchecked) private var ring: [Entry] = []
  @exclusivity(unchecked) private var head = 0
  @exclusivity(unchecked) private var inRing = 0
  /// Held requests read after a later-timed one: a min-heap by (time, sequence).
  @exclusivity(unchecked) private var late: [Entry] = []
  @exclusivity(unchecked) private var heldRequests: [Request] = []
  @exclusivity(unchecked) private var heldAttributes: [RequestAttributes] = []
  @exclusivity(unchecked) private var freeSlots: [Int32] = []
  @exclusivity(unchecked) private var sequence: Int64 = 0
  @exclusivity(unchecked) private var newestRead: Int64 = .min
  @exclusivity(unchecked) private var lastDelivered: Int64 = .min
  /// Requests read after a later-timed one (put back in order, or raised).
  private(set) var outOfOrder: Int64 = 0
  /// Requests whose time was raised because a later-timed one had already been delivered.
  private(set) var raised: Int64 = 0
  private(set) var requestsRead: Int64 = 0

  init(_ inner: any TraceReader, window: Int64, maximumHeld: Int = 1 << 18) {
    self.inner = inner
    self.window = window
    self.maximumHeld = maximumHeld
    incoming = RequestBatch(capacity: 1 << 12)
    ring = Array(repeating: (0, 0, 0), count: 1 << 12)
  }

  /// `inner` ordered within the format's `reorder-window` parameter (``HTTPTraffic/reorderWindow``).
  convenience init(_ inner: any TraceReader, parameters: Parameters) {
    self.init(inner, window: parameters.duration(HTTPTraffic.reorderWindow.name))
  }

  var path: String { inner.path }
  var traits: TraceTraits { inner.traits }
  var knownRequestCount: Int64? { nil }
  var trafficBook: TrafficBook? { inner.trafficBook }

  var notes: String? {
    var parts = inner.notes.map { [$0] } ?? []
    if outOfOrder > 0 {
      parts.append(
        "\(outOfOrder) out of time order in the file (put back in order within \(Self.seconds(window)) s"
          + (raised > 0 ? "; \(raised) later than that replayed at the time before them)" : ")"))
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  private static func seconds(_ micros: Int64) -> String {
    micros % 1_000_000 == 0 ? String(micros / 1_000_000) : String(Double(micros) / 1e6)
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    batch.removeAll()
    let attributes = batch.attributesForWriting()
    try batch.refill { (requests) throws(TraceError) -> Int in
      var count = 0
      while count < requests.count {
        let fromRing = inRing > 0 && (late.isEmpty || Self.before(ring[head], late[0]))
        let first: Entry? = fromRing ? ring[head] : late.first
        if let first, innerDone || first.time <= newestRead &- window || inRing + late.count > maximumHeld {
          if fromRing {
            head = (head + 1) & (ring.count - 1)
            inRing -= 1
          } else {
            popLate()
          }
          let slot = Int(first.slot)
          var request = heldRequests[slot]
          if request.time < lastDelivered {
            request.time = lastDelivered
            raised += 1
          }
          lastDelivered = request.time
          requests[count] = request
          attributes[count] = heldAttributes[slot]
          freeSlots.append(first.slot)
          count += 1
          continue
        }
        if innerDone { break }
        if incomingIndex < incoming.count {
          hold(incomingIndex)
          incomingIndex += 1
          continue
        }
        incomingIndex = 0
        if try !inner.read(into: incoming) { innerDone = true }
      }
      return count
    }
    requestsRead += Int64(batch.count)
    return batch.count > 0
  }

  /// Holds the incoming request at `index` in a free slot: at the ring's tail when it is in
  /// time order (O(1)), else in the heap of late ones (O(log late)).
  private func hold(_ index: Int) {
    let request = incoming[index]
    let slot: Int32
    if let free = freeSlots.popLast() {
      slot = free
      heldRequests[Int(slot)] = request
      heldAttributes[Int(slot)] = incoming.attributes(index)
    } else {
      slot = Int32(heldRequests.count)
      heldRequests.append(request)
      heldAttributes.append(incoming.attributes(index))
    }
    let entry: Entry = (request.time, sequence, slot)
    sequence += 1
    guard request.time >= newestRead else {
      outOfOrder += 1
      pushLate(entry)
      return
    }
    newestRead = request.time
    if inRing == ring.count { growRing() }
    ring[(head + inRing) & (ring.count - 1)] = entry
    inRing += 1
  }

  /// Doubles the ring, its entries moved to the front in order.
  private func growRing() {
    let mask = ring.count - 1
    var larger = Array(repeating: (time: Int64(0), sequence: Int64(0), slot: Int32(0)), count: ring.count * 2)
    for offset in 0..<inRing { larger[offset] = ring[(head + offset) & mask] }
    ring = larger
    head = 0
  }

  private func pushLate(_ entry: Entry) {
    late.append(entry)
    var child = late.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.before(late[child], late[parent]) else { break }
      late.swapAt(child, parent)
      child = parent
    }
  }

  private func popLate() {
    let last = late.removeLast()
    guard !late.isEmpty else { return }
    late[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < late.count else { break }
      var smallest = left
      if left + 1 < late.count, Self.before(late[left + 1], late[left]) { smallest = left + 1 }
      guard Self.before(late[smallest], late[parent]) else { break }
      late.swapAt(parent, smallest)
      parent = smallest
    }
  }

  private static func before(_ lhs: Entry, _ rhs: Entry) -> Bool {
    lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
  }
}
