import CacheCore

/// `loop`: objects 0, 1, …, objects−1, 0, 1, … in a cycle (LRU's and FIFO's worst case: with
/// room for fewer than `objects` they never hit, while an optimal cache hits on about
/// (cache − 1) / (objects − 1) of the requests).
public struct LoopGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "loop", summary: "a cyclic scan over a fixed set of objects",
    parameters: [ParameterSpec("objects", default: "1000", .integer(1...(1 << 40)), help: "objects in the loop")]
      + RequestStream.commonParameters(),
    example: "gen:loop:objects=1000,requests=50000")

  public let objects: Int64
  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
    objects = parameters.integer("objects")
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(objects: objects, objectSet: SyntheticObjects(sizes: stream.sizes, seed: seed, space: space))
  }

  /// The next object of the cycle (its own counter, so in a mix each part keeps its order).
  public struct Pattern: KeyPattern {
    let objects: Int64
    let objectSet: SyntheticObjects
    var position: Int64 = 0

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      let id = position
      position = position + 1 == objects ? 0 : position + 1
      return objectSet.object(id)
    }
  }
}
