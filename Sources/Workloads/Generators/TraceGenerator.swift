import CacheCore
import Stats
import Traces

/// What the registry, `cachelab gen` and `--trace gen:NAME:...` know about a generator.
public struct GeneratorDescriptor: Sendable {
  /// Registry key (`uniform`, `loop`).
  public var name: String
  /// One line: what the trace looks like.
  public var summary: String
  /// The `key=value` parameters it takes (besides none: every parameter has a default).
  public var parameters: [ParameterSpec]
  /// The format of the file it writes: `oracle-general` (requests only, next-access times
  /// computed) or `cachelab` (CSV with event rows).
  public var outputFormat: String
  /// An example specification (`gen:NAME:k=v,...`) for help and docs/commands/gen.md.
  public var example: String

  public init(
    name: String, summary: String, parameters: [ParameterSpec], outputFormat: String = "oracle-general", example: String
  ) {
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.outputFormat = outputFormat
    self.example = example
  }
}

/// A seeded synthetic trace generator: the same parameters and seed always write the same file.
public protocol TraceGenerator: Sendable {
  /// Name, parameters and documentation.
  static var descriptor: GeneratorDescriptor { get }
  /// A generator with these (validated) parameters.
  ///
  /// - Throws: ``ConfigurationError`` when the parameters are inconsistent.
  init(_ parameters: Parameters) throws(ConfigurationError)
  /// Writes the trace for `seed` to `path` atomically (request generators: CSV `time,key,size`
  /// for a `.csv` name, else oracle-general with next-access times), calling `progress` with
  /// the requests written and the total now and then.
  func write(seed: UInt64, to path: String, progress: (Int64, Int64) -> Void) throws
}

/// Which object each request of a request-only synthetic trace asks for.
public protocol KeyPattern {
  /// The object of request `index` (0-based) at trace time `time` µs: its key and size.
  mutating func next(index: Int64, time: Int64) -> (key: UInt64, size: Int64)
}

/// The parameters every request-only generator shares, and the loop that writes its trace:
/// `requests` requests arriving as a Poisson process at `rate` per second of trace time, each
/// object drawn by the generator's ``KeyPattern``, to an oracle-general file with exact
/// next-access times.
public enum RequestStream {
  /// `requests`, `rate` and `sizes`, for a generator's parameter list.
  public static func commonParameters(requests: Int64 = 100_000) -> [ParameterSpec] {
    [
      ParameterSpec("requests", default: String(requests), .integer(1...(1 << 40)), help: "number of requests"),
      ParameterSpec(
        "rate", default: "1000", .real(1e-6...1e9), help: "mean requests per second of trace time (Poisson arrivals)"),
      ParameterSpec(
        "sizes", default: SizeDistribution.standard.description.replacingOccurrences(",", with: ";"), .text,
        help:
          "object sizes: fixed:N, uniform:min=A;max=B, lognormal:mu=M;sigma=S;min=A;max=B, pareto:shape=K;min=A;max=B (';' for the inner commas)"
      ),
    ]
  }

  /// The longest trace time a generator writes: ten years.
  public static let maximumSpanSeconds = 10 * 365.25 * 86_400.0

  /// Writes `requests` requests of `pattern` to `writer` and commits it.
  public static func write(
    _ pattern: inout some KeyPattern, requests: Int64, rate: Double, seed: UInt64, into writer: any TraceWriter,
    progress: (Int64, Int64) -> Void
  ) throws(FileError) {
    let timeRandom = GSLRandom(seed: KeyHash.mix(seed ^ 0x71_3e))
    let meanGapMicros = 1e6 / rate
    var clock = 0.0
    for index in 0..<requests {
      let time = Int64(clock)
      let (key, size) = pattern.next(index: index, time: time)
      try writer.write(Request(time: time, key: key, size: size))
      clock += timeRandom.exponential(mean: meanGapMicros)
      if index & 0xF_FFFF == 0xF_FFFF { progress(index + 1, requests) }
    }
    try writer.commit()
  }
}

/// A generator whose trace is requests only, one object per request from a ``KeyPattern``
/// (so it can also be a part of a `mix`).
public protocol PatternGenerator: TraceGenerator, PatternGeneratorBox {
  associatedtype Pattern: KeyPattern
  /// Number of requests, their arrival rate and the object sizes.
  var stream: StreamSettings { get }
  /// The pattern for `seed`; its keys are ``SyntheticKeys/key(_:space:)`` of `space`, so
  /// patterns of different spaces never share an object.
  func pattern(seed: UInt64, space: UInt64) -> Pattern
}

extension PatternGenerator {
  public func anyPattern(seed: UInt64, space: UInt64) -> any KeyPattern { pattern(seed: seed, space: space) }

  public func write(seed: UInt64, to path: String, progress: (Int64, Int64) -> Void) throws {
    var pattern = pattern(seed: seed, space: 0)
    let writer: any TraceWriter =
      path.lowercased().hasSuffix(".csv")
      ? try CSVTraceWriter(path: path) : try OracleGeneralWriter(path: path, computeNextAccess: true)
    try RequestStream.write(
      &pattern, requests: stream.requests, rate: stream.rate, seed: seed, into: writer, progress: progress)
  }
}

/// Object keys of synthetic traces: object `id` of key space `space` (ids below 2^40).
public enum SyntheticKeys {
  /// A bijective scramble of (`space`, `id`), so keys carry no hint of popularity or order;
  /// space 0 gives ``ZipfWorkload/key(ofRank:)``.
  @inlinable
  public static func key(_ id: Int64, space: UInt64) -> UInt64 {
    KeyHash.mix(UInt64(bitPattern: id) &+ 1 &+ (space << 40))
  }
}

/// The settings every request generator shares: `requests`, `rate` and `sizes`.
public struct StreamSettings: Sendable {
  /// Number of requests.
  public let requests: Int64
  /// Mean requests per second of trace time.
  public let rate: Double
  /// How object sizes are drawn.
  public let sizes: SizeDistribution

  /// Reads them from `parameters` (which declare ``RequestStream/commonParameters(requests:)``).
  ///
  /// - Throws: ``ConfigurationError`` for a bad size distribution or a trace longer than ten years.
  public init(_ parameters: Parameters, owner: String) throws(ConfigurationError) {
    requests = parameters.integer("requests")
    rate = parameters.real("rate")
    sizes = try SizeDistribution(parsing: parameters.string("sizes").replacingOccurrences(";", with: ","))
    guard Double(requests) / rate <= RequestStream.maximumSpanSeconds else {
      throw ConfigurationError(
        .invalidValue, "\(owner): \(requests) requests at rate \(rate) span more than 10 years of trace time")
    }
  }
}

/// The objects of one key space with sizes drawn per object as a pure function of the id:
/// object id → (key, size) with no table. O(1) per object.
public struct SyntheticObjects: Sendable {
  let sizes: SizeDistribution
  let seed: UInt64
  let space: UInt64

  public init(sizes: SizeDistribution, seed: UInt64, space: UInt64) {
    self.sizes = sizes
    self.seed = seed
    self.space = space
  }

  /// The key and size of object `id`.
  public func object(_ id: Int64) -> (key: UInt64, size: Int64) {
    (SyntheticKeys.key(id, space: space), sizes.size(ofObject: id, seed: seed))
  }
}

/// Fixed per-object sizes drawn once from a distribution (O(objects) memory).
public struct ObjectSizes: Sendable {
  @usableFromInline let sizes: [Int64]

  /// Draws `count` sizes from `distribution` with a stream derived from `seed` and `salt`.
  public init(count: Int, distribution: SizeDistribution, seed: UInt64, salt: UInt64 = 0x51_7e) {
    let random = GSLRandom(seed: KeyHash.mix(seed ^ salt))
    sizes = (0..<count).map { _ in distribution.sample(random) }
  }

  /// The size of object `index`.
  @inlinable public subscript(index: Int) -> Int64 { sizes[index] }
}

/// A request generator seen without its pattern type, so a `mix` can hold several.
public protocol PatternGeneratorBox: Sendable {
  /// ``PatternGenerator/pattern(seed:space:)`` as an existential.
  func anyPattern(seed: UInt64, space: UInt64) -> any KeyPattern
}
