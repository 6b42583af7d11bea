import CacheCore
import Stats

/// `zipf`: Zipf(`alpha`) popularity over `objects` objects (GSL's alias method), sizes fixed
/// per object, Poisson arrivals: the trace `cachelab gen zipf` writes, request for request.
public struct ZipfGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "zipf", summary: "Zipf(alpha) popularity over a fixed set of objects",
    parameters: [
      ParameterSpec("objects", default: "10000", .integer(1...(1 << 28)), help: "distinct objects"),
      ParameterSpec("alpha", default: "1.0", .real(0...100), help: "Zipf exponent (0: uniform)"),
    ] + RequestStream.commonParameters(),
    example: "gen:zipf:objects=10000,requests=100000,alpha=0.9")

  public let objects: Int
  public let alpha: Double
  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
    objects = Int(parameters.integer("objects"))
    alpha = parameters.real("alpha")
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(
      popularity: DiscreteSampler(zipfObjects: objects, alpha: alpha),
      random: GSLRandom(seed: KeyHash.mix(seed ^ 0x7a_4b)),
      sizes: ObjectSizes(count: objects, distribution: stream.sizes, seed: seed), space: space)
  }

  /// Draws a popularity rank per request.
  public struct Pattern: KeyPattern {
    let popularity: DiscreteSampler
    let random: GSLRandom
    let sizes: ObjectSizes
    let space: UInt64

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      let rank = popularity.sample(random)
      return (SyntheticKeys.key(Int64(rank), space: space), sizes[rank])
    }
  }
}
