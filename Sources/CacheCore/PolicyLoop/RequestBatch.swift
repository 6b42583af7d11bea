/// A reusable, fixed-capacity buffer of requests: readers fill it, caches replay it.
///
/// One batch is allocated per run and refilled in place, so reading and replaying a trace
/// allocates nothing per request. A batch is shared read-only by the caches of a pass while
/// they replay it; only the reader writes it, between passes.
public final class RequestBatch: @unchecked Sendable {
  /// Maximum number of requests the batch holds.
  public let capacity: Int
  @usableFromInline let storage: UnsafeMutablePointer<Request>
  @exclusivity(unchecked) @usableFromInline var _count = 0
  /// Per-request attributes, allocated on first use by a reader of a rich format.
  @exclusivity(unchecked) @usableFromInline var attributeStorage: UnsafeMutablePointer<RequestAttributes>?

  /// Creates an empty batch for up to `capacity` requests.
  public init(capacity: Int = 1 << 16) {
    precondition(capacity > 0, "batch capacity must be positive")
    self.capacity = capacity
    storage = .allocate(capacity: capacity)
  }

  deinit {
    storage.deallocate()
    attributeStorage?.deinitialize(count: capacity)
    attributeStorage?.deallocate()
  }

  /// Whether the current contents carry attributes (set by the reader of a rich format).
  @exclusivity(unchecked) public private(set) var hasAttributes = false

  /// The attributes buffer for a reader to fill (allocated once, all-default), and marks the
  /// batch as carrying attributes until ``clearAttributes()``.
  public func attributesForWriting() -> UnsafeMutableBufferPointer<RequestAttributes> {
    if attributeStorage == nil {
      let buffer = UnsafeMutablePointer<RequestAttributes>.allocate(capacity: capacity)
      buffer.initialize(repeating: RequestAttributes(), count: capacity)
      attributeStorage = buffer
    }
    hasAttributes = true
    return UnsafeMutableBufferPointer(start: attributeStorage, count: capacity)
  }

  /// Marks the contents as carrying no attributes.
  public func clearAttributes() {
    hasAttributes = false
  }

  /// The attributes of request `index`, or defaults when the trace has none.
  public func attributes(_ index: Int) -> RequestAttributes {
    precondition(index >= 0 && index < _count, "batch index out of range")
    guard hasAttributes, let attributeStorage else { return RequestAttributes() }
    return attributeStorage[index]
  }

  /// Number of valid requests.
  @inlinable public var count: Int { _count }

  /// The request at `index` (< count).
  @inlinable
  public subscript(index: Int) -> Request {
    precondition(index >= 0 && index < _count, "batch index out of range")
    return storage[index]
  }

  /// Calls `body` with the valid requests.
  @inlinable
  public func withRequests<R, E: Error>(
    _ body: (UnsafeBufferPointer<Request>) throws(E) -> R
  ) throws(E) -> R {
    try body(UnsafeBufferPointer(start: storage, count: _count))
  }

  /// Replaces the contents: `body` writes requests from the start of the buffer and returns
  /// how many it wrote. If `body` throws, the batch is left empty.
  @inlinable
  public func refill<E: Error>(
    _ body: (UnsafeMutableBufferPointer<Request>) throws(E) -> Int
  ) throws(E) {
    _count = 0
    let written = try body(UnsafeMutableBufferPointer(start: storage, count: capacity))
    precondition(written >= 0 && written <= capacity, "reader wrote outside the batch")
    _count = written
  }

  /// Keeps only the first `limit` requests matching `keep` (and their attributes), in
  /// order; returns how many requests were looked at (all of them unless `limit` was hit).
  /// O(count), no allocation.
  @inlinable
  public func retain(limit: Int = .max, where keep: (Request) -> Bool) -> Int {
    var kept = 0
    var looked = 0
    while looked < _count, kept < limit {
      let request = storage[looked]
      if keep(request) {
        if kept != looked {
          storage[kept] = request
          if hasAttributes, let attributeStorage { attributeStorage[kept] = attributeStorage[looked] }
        }
        kept += 1
      }
      looked += 1
    }
    _count = kept
    return looked
  }

  /// Empties the batch (keeping its buffers) so ``append(from:range:where:)`` can fill it.
  public func removeAll() {
    _count = 0
    hasAttributes = false
  }

  /// Appends, in order, the requests of `source[range]` that `keep` accepts (with their
  /// attributes) until this batch is full; returns the index in `source` to go on from
  /// (`range.upperBound` when all were looked at). O(range.count), no allocation.
  @inlinable
  public func append(from source: RequestBatch, range: Range<Int>, where keep: (Request) -> Bool) -> Int {
    var index = range.lowerBound
    let attributes = source.hasAttributes ? source.attributeStorage : nil
    if attributes != nil, !hasAttributes {
      // Requests appended earlier carried none: give them the defaults, not stale values.
      let buffer = attributesForWriting()
      for slot in 0..<_count { buffer[slot] = RequestAttributes() }
    }
    let targetAttributes = hasAttributes ? attributeStorage : nil
    while index < range.upperBound, _count < capacity {
      let request = source.storage[index]
      if keep(request) {
        storage[_count] = request
        if let targetAttributes { targetAttributes[_count] = attributes?[index] ?? RequestAttributes() }
        _count += 1
      }
      index += 1
    }
    return index
  }

  /// Rewrites every size in the batch to 1 (object mode).
  public func setAllSizesToOne() {
    for i in 0..<_count { storage[i].size = 1 }
  }
}

extension RequestBatch {
  /// Sets each request's `nextAccess` to `value(index)`.
  public func annotateNextAccess(_ value: (Int) -> Int64) {
    for index in 0..<_count { storage[index].nextAccess = value(index) }
  }
}

extension RequestBatch {
  /// Calls `body` with the requests' attributes (one per request), or nil when the current
  /// contents carry none.
  @inlinable
  public func withAttributes<R>(_ body: (UnsafePointer<RequestAttributes>?) -> R) -> R {
    body(hasAttributes ? attributeStorage.map { UnsafePointer($0) } : nil)
  }
}
