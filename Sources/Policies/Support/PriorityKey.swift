/// A heap key ordering by an integer priority, then by an insertion sequence number
/// (earlier first): the FIFO tie-break several libCacheSim policies use.
@frozen
public struct IntegerPriority: Comparable, Sendable {
  public var priority: Int64
  public var sequence: Int64

  @inlinable
  public init(_ priority: Int64, sequence: Int64) {
    self.priority = priority
    self.sequence = sequence
  }

  @inlinable
  public static func < (a: Self, b: Self) -> Bool {
    a.priority != b.priority ? a.priority < b.priority : a.sequence < b.sequence
  }
}

/// A heap key ordering by a real priority, then by a sequence number (earlier first).
@frozen
public struct RealPriority: Comparable, Sendable {
  public var priority: Double
  public var sequence: Int64

  @inlinable
  public init(_ priority: Double, sequence: Int64) {
    self.priority = priority
    self.sequence = sequence
  }

  @inlinable
  public static func < (a: Self, b: Self) -> Bool {
    a.priority != b.priority ? a.priority < b.priority : a.sequence < b.sequence
  }
}
