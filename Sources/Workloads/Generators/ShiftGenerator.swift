import CacheCore
import Stats

/// `shift`: Zipf popularity whose working set moves at given points: after the p-th shift,
/// popularity rank r is object r + p·⌈(1 − overlap)·objects⌉, so `overlap=0` replaces the
/// whole working set and `overlap=0.5` turns the colder half into the new hot half.
/// Shift points are fractions of the requests (`at=0.5`) or trace time (`at=10m;30m`).
public struct ShiftGenerator: PatternGenerator {
  public static let descriptor = GeneratorDescriptor(
    name: "shift", summary: "Zipf popularity whose working set moves at given times",
    parameters: [
      ParameterSpec("objects", default: "10000", .integer(1...(1 << 28)), help: "distinct objects per phase"),
      ParameterSpec("alpha", default: "1.0", .real(0...100), help: "Zipf exponent"),
      ParameterSpec(
        "at", default: "0.5", .text,
        help: "shift points separated by ';': fractions of the requests in (0, 1) or trace times (10m, 2h)"),
      ParameterSpec(
        "overlap", default: "0", .real(0...1), help: "fraction of the working set that stays at each shift"),
    ] + RequestStream.commonParameters(),
    example: "gen:shift:objects=5000,requests=200000,at=0.25;0.5;0.75,overlap=0.2")

  /// Where a shift happens.
  public enum Point: Sendable, Equatable {
    /// Before request number `n` of the trace (0-based; in a `mix`, of the whole mix).
    case request(Int64)
    /// At the first request at or after this trace time, µs.
    case time(Int64)
  }

  public let objects: Int
  public let alpha: Double
  public let points: [Point]
  public let step: Int64
  public let stream: StreamSettings

  public init(_ parameters: Parameters) throws(ConfigurationError) {
    stream = try StreamSettings(parameters, owner: Self.descriptor.name)
    objects = Int(parameters.integer("objects"))
    alpha = parameters.real("alpha")
    step = Int64((Double(objects) * (1 - parameters.real("overlap"))).rounded(.up))
    var points: [Point] = []
    for item in parameters.string("at").split(separator: ";") {
      let text = String(item.filter { $0 != " " }).lowercased()
      if text.last?.isLetter == true, let micros = Duration.microseconds(text), micros > 0 {
        points.append(.time(micros))
      } else if let fraction = Double(text), fraction > 0, fraction < 1 {
        points.append(.request(Int64((Double(parameters.integer("requests")) * fraction).rounded(.down))))
      } else {
        throw ConfigurationError(
          .invalidValue,
          "shift: at=\(item) must be a fraction of the requests in (0, 1) or a trace time such as 10m")
      }
    }
    guard !points.isEmpty else { throw ConfigurationError(.invalidValue, "shift: at= needs at least one point") }
    self.points = points
  }

  public func pattern(seed: UInt64, space: UInt64) -> Pattern {
    Pattern(
      popularity: DiscreteSampler(zipfObjects: objects, alpha: alpha),
      random: GSLRandom(seed: KeyHash.mix(seed ^ 0x7a_4b)), points: points, step: step,
      objectSet: SyntheticObjects(sizes: stream.sizes, seed: seed, space: space))
  }

  /// Draws a rank and moves it by the phase: the number of shift points already passed.
  public struct Pattern: KeyPattern {
    let popularity: DiscreteSampler
    let random: GSLRandom
    let points: [Point]
    let step: Int64
    let objectSet: SyntheticObjects

    public mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64) {
      var phase: Int64 = 0
      for point in points {
        switch point {
        case .request(let limit): if index >= limit { phase += 1 }
        case .time(let limit): if time >= limit { phase += 1 }
        }
      }
      let id = Int64(popularity.sample(random)) + phase * step
      return objectSet.object(id)
    }
  }
}
