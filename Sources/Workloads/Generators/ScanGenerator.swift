import CacheCore

/// `scan`: a sequential scan in which every request asks for an object never seen before
/// (one-hit wonders: on its own every request misses; mixed with a popular set it measures a
/// policy's scan resistance).
public struct ScanGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "scan", summary: "a sequential scan of new objects, each requested once",
    parameters: RequestStream.commonParameters(),
    example: "gen:scan:requests=100000")

  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(objectSet: SyntheticObjects(sizes: stream.sizes, seed: seed, space: space))
  }

  /// Object ids 0, 1, 2, … (its own counter).
  public struct Pattern: KeyPattern {
    let objectSet: SyntheticObjects
    var position: Int64 = 0

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      let id = position
      position += 1
      return objectSet.object(id)
    }
  }
}
