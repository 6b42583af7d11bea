import CacheCore
import Stats

/// `uniform`: every request picks one of `objects` objects with equal probability (the
/// workload where no policy beats random: every hit ratio is about cache / objects).
public struct UniformGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "uniform", summary: "every object equally likely on every request",
    parameters: [ParameterSpec("objects", default: "10000", .integer(1...(1 << 40)), help: "distinct objects")]
      + RequestStream.commonParameters(),
    example: "gen:uniform:objects=10000,requests=100000,sizes=fixed:4096")

  public let objects: Int64
  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
    objects = parameters.integer("objects")
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(
      objects: objects, random: GSLRandom(seed: KeyHash.mix(seed ^ 0x0b_1e)),
      objectSet: SyntheticObjects(sizes: stream.sizes, seed: seed, space: space))
  }

  /// Draws an object uniformly; its size is a pure function of the object (no table).
  public struct Pattern: KeyPattern {
    let objects: Int64
    let random: GSLRandom
    let objectSet: SyntheticObjects

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      let id = Int64(random.integer(below: UInt(objects)))
      return objectSet.object(id)
    }
  }
}
