import CacheCore

/// Delivers another reader's requests in time order, ties in file order, when no request is
/// more than `window` later in the file than an earlier-timed one — as in access logs, which
/// servers write when a response ends, and captures, which list entries as they finish.
///
/// A request held back is kept until a request `window` newer has been read (or `maximumHeld`
/// are held, or the input ends). A request that arrives after a later-timed one was already
/// delivered keeps its place, with its time raised to that one's; ``notes`` counts both kinds.
/// Memory: the held requests (at most `maximumHeld`); cost O(log held) per request.
final class TimeOrderedReader: TraceReader {
  private let inner: any TraceReader
  private let window: Int64
  private let maximumHeld: Int
  private let incoming: RequestBatch
  private var incomingIndex = 0
  private var innerDone = false
  /// Min-heap of (time, sequence, slot) over the held requests.
  private var heap: [(time: Int64, sequence: Int64, slot: Int32)] = []
  private var heldRequests: [Request] = []
  private var heldAttributes: [RequestAttributes] = []
  private var freeSlots: [Int32] = []
  private var sequence: Int64 = 0
  private var newestRead: Int64 = .min
  private var lastDelivered: Int64 = .min
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
        if let top = heap.first, innerDone || top.time <= newestRead - window || heap.count > maximumHeld {
          let slot = Int(popMinimum())
          var request = heldRequests[slot]
          if request.time < lastDelivered {
            request.time = lastDelivered
            raised += 1
          }
          lastDelivered = request.time
          requests[count] = request
          attributes[count] = heldAttributes[slot]
          freeSlots.append(Int32(slot))
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

  private func hold(_ index: Int) {
    let request = incoming[index]
    if request.time < newestRead { outOfOrder += 1 } else { newestRead = request.time }
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
    heap.append((request.time, sequence, slot))
    sequence += 1
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.before(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func popMinimum() -> Int32 {
    let top = heap[0].slot
    let last = heap.removeLast()
    guard !heap.isEmpty else { return top }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { break }
      var smallest = left
      if left + 1 < heap.count, Self.before(heap[left + 1], heap[left]) { smallest = left + 1 }
      guard Self.before(heap[smallest], heap[parent]) else { break }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }

  private static func before(
    _ lhs: (time: Int64, sequence: Int64, slot: Int32), _ rhs: (time: Int64, sequence: Int64, slot: Int32)
  ) -> Bool {
    lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
  }
}
