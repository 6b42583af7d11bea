import CacheCore
import Stats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How synthetic object sizes are drawn: `fixed:4096`, `uniform:min=1KiB,max=64KiB`,
/// `lognormal:mu=8.318,sigma=1.5,min=64,max=1MiB` or `pareto:shape=1.2,min=1KiB,max=1MiB`.
///
/// Draws outside `min...max` are clamped to the nearest bound, so sizes are always in range.
public enum SizeDistribution: Sendable, Equatable, CustomStringConvertible {
  /// Every object has this size.
  case fixed(Int64)
  /// Uniform integers in the range.
  case uniform(ClosedRange<Int64>)
  /// exp(N(mu, sigma²)) clamped to the range.
  case lognormal(mu: Double, sigma: Double, range: ClosedRange<Int64>)
  /// Pareto with the given shape and scale = the range's lower bound, clamped to the range.
  case pareto(shape: Double, range: ClosedRange<Int64>)

  /// The default for synthetic traces: lognormal with a 4 KiB median, clamped to 64 B–1 MiB.
  public static let standard = SizeDistribution.lognormal(mu: 8.318, sigma: 1.5, range: 64...(1 << 20))

  /// Parses `kind:key=value,...` (see the type's description).
  ///
  /// - Throws: ``ConfigurationError`` for an unknown kind, key or value.
  public init(parsing text: String) throws(ConfigurationError) {
    let colon = text.firstIndex(of: ":")
    let kind = String(colon.map { text[..<$0] } ?? Substring(text)).lowercased()
    let rest = colon.map { text[text.index(after: $0)...] } ?? ""
    func bytes(_ parameters: Parameters, _ name: String) throws(ConfigurationError) -> Int64 {
      guard let value = ByteCount.parse(parameters.string(name)) else {
        throw ConfigurationError(.invalidValue, "sizes \(kind): \(name)=\(parameters.string(name)) is not a byte count")
      }
      return value
    }
    func range(_ parameters: Parameters) throws(ConfigurationError) -> ClosedRange<Int64> {
      let low = try bytes(parameters, "min")
      let high = try bytes(parameters, "max")
      guard low <= high else {
        throw ConfigurationError(.invalidValue, "sizes \(kind): min \(low) is above max \(high)")
      }
      return low...high
    }
    let minSpec = ParameterSpec("min", default: "64", .text, help: "smallest size")
    let maxSpec = ParameterSpec("max", default: "1MiB", .text, help: "largest size")
    switch kind {
    case "fixed":
      if let value = ByteCount.parse(String(rest)), !rest.contains("=") {
        self = .fixed(value)
        return
      }
      let parameters = try Parameters(
        parsing: rest, specs: [ParameterSpec("size", default: "4096", .text, help: "the size")], owner: "sizes fixed")
      self = .fixed(try bytes(parameters, "size"))
    case "uniform":
      let parameters = try Parameters(parsing: rest, specs: [minSpec, maxSpec], owner: "sizes uniform")
      self = .uniform(try range(parameters))
    case "lognormal":
      let parameters = try Parameters(
        parsing: rest,
        specs: [
          ParameterSpec("mu", default: "8.318", .real(-100...100), help: "mean of log(size)"),
          ParameterSpec("sigma", default: "1.5", .real(0...100), help: "standard deviation of log(size)"),
          minSpec, maxSpec,
        ], owner: "sizes lognormal")
      self = .lognormal(mu: parameters.real("mu"), sigma: parameters.real("sigma"), range: try range(parameters))
    case "pareto":
      let parameters = try Parameters(
        parsing: rest,
        specs: [ParameterSpec("shape", default: "1.2", .real(0.01...100), help: "tail index"), minSpec, maxSpec],
        owner: "sizes pareto")
      let sizes = try range(parameters)
      guard sizes.lowerBound > 0 else {
        throw ConfigurationError(.invalidValue, "sizes pareto: min must be positive")
      }
      self = .pareto(shape: parameters.real("shape"), range: sizes)
    default:
      throw ConfigurationError(
        .unknownName, "unknown size distribution '\(kind)'; known: fixed, uniform, lognormal, pareto")
    }
  }

  /// Draws one size.
  public func sample(_ random: GSLRandom) -> Int64 {
    switch self {
    case .fixed(let size):
      return size
    case .uniform(let range):
      let width = UInt(range.upperBound - range.lowerBound) &+ 1
      return width == 0 ? range.lowerBound : range.lowerBound + Int64(random.integer(below: width))
    case .lognormal(let mu, let sigma, let range):
      return Self.clamp(random.lognormal(mu: mu, sigma: sigma), to: range)
    case .pareto(let shape, let range):
      return Self.clamp(random.pareto(shape: shape, scale: Double(range.lowerBound)), to: range)
    }
  }

  /// The size of object `id` as a pure function of (`seed`, `id`): the distribution's quantile
  /// of a uniform value hashed from them, so a generator needs no per-object table. O(1).
  public func size(ofObject id: Int64, seed: UInt64) -> Int64 {
    let hash = KeyHash.mix(seed ^ KeyHash.mix(UInt64(bitPattern: id) &+ 0x5eed))
    let unit = (Double(hash >> 11) + 0.5) / 9_007_199_254_740_992.0
    switch self {
    case .fixed(let size):
      return size
    case .uniform(let range):
      let width = UInt64(range.upperBound - range.lowerBound) &+ 1
      return width == 0 ? range.lowerBound : range.lowerBound + Int64(hash % width)
    case .lognormal(let mu, let sigma, let range):
      return Self.clamp(exp(mu + sigma * Quantiles.standardNormal(unit)), to: range)
    case .pareto(let shape, let range):
      return Self.clamp(Quantiles.pareto(unit, shape: shape, scale: Double(range.lowerBound)), to: range)
    }
  }

  private static func clamp(_ value: Double, to range: ClosedRange<Int64>) -> Int64 {
    if !(value < Double(range.upperBound)) { return range.upperBound }
    return max(range.lowerBound, min(range.upperBound, Int64(value.rounded())))
  }

  public var description: String {
    switch self {
    case .fixed(let size): return "fixed:\(size)"
    case .uniform(let range): return "uniform:min=\(range.lowerBound),max=\(range.upperBound)"
    case .lognormal(let mu, let sigma, let range):
      return "lognormal:mu=\(mu),sigma=\(sigma),min=\(range.lowerBound),max=\(range.upperBound)"
    case .pareto(let shape, let range):
      return "pareto:shape=\(shape),min=\(range.lowerBound),max=\(range.upperBound)"
    }
  }
}
