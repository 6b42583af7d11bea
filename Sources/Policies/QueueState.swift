/// Per-object state of the multi-queue FIFO policies (S3-FIFO, QDLP): which queue the
/// entry is in and its access counter, packed into two bytes of the arena node.
@frozen
public struct QueueState: Equatable, Sendable {
  /// Queue identifiers.
  public static let small: UInt8 = 0
  public static let main: UInt8 = 1
  public static let ghost: UInt8 = 2

  /// ``small``, ``main`` or ``ghost``.
  public var queue: UInt8
  /// Accesses counted while in the queue (saturating at 255).
  public var frequency: UInt8

  @inlinable
  public init(queue: UInt8, frequency: UInt8 = 0) {
    self.queue = queue
    self.frequency = frequency
  }

  /// Adds one access, saturating.
  @inlinable
  public mutating func touch() {
    if frequency < .max { frequency += 1 }
  }
}
