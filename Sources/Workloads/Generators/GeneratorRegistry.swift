import CacheCore

/// The one list of synthetic trace generators: `cachelab gen NAME`, `--trace gen:NAME:...`,
/// `mix` parts and the tests read it; adding a generator is its file and one line here.
public enum GeneratorRegistry {
  /// The registry: every built-in generator, in the order `cachelab gen --help` lists them.
  public static let registry = Registry<GeneratorEntry>(
    kind: "generator", plural: "generators",
    [
      GeneratorEntry(pattern: ZipfGenerator.self),
      GeneratorEntry(pattern: UniformGenerator.self),
      GeneratorEntry(pattern: LoopGenerator.self),
      GeneratorEntry(pattern: ScanGenerator.self),
      GeneratorEntry(pattern: ShiftGenerator.self),
      GeneratorEntry(pattern: MixGenerator.self),
      GeneratorEntry(EventsGenerator.self),
    ])

  /// Every generator, in listing order.
  public static var all: [GeneratorEntry] { registry.all }

  /// The generator named `name`, case-insensitively.
  ///
  /// - Throws: ``ConfigurationError`` listing the known names.
  public static func entry(named name: String) throws(ConfigurationError) -> GeneratorEntry {
    try registry.named(name)
  }
}

extension GeneratorEntry: RegistryEntry {
  public var name: String { descriptor.name }
  public var aliases: [String] { [] }
  public var summary: String { descriptor.summary }
  public var parameters: [ParameterSpec] { descriptor.parameters }
}

/// A registered generator: its descriptor and factories specialised for its type.
public struct GeneratorEntry: Sendable {
  public let descriptor: GeneratorDescriptor
  /// The generator's type (for a command per generator).
  public let generatorType: any TraceGenerator.Type
  let make: @Sendable (Parameters) throws(ConfigurationError) -> any TraceGenerator
  /// For request generators: the generator as a `mix` part.
  let makePart: (@Sendable (Parameters) throws(ConfigurationError) -> any PatternGeneratorBox)?

  /// Registers a generator that writes its own file.
  public init<G: TraceGenerator>(_ type: G.Type) {
    descriptor = G.descriptor
    generatorType = G.self
    make = { parameters throws(ConfigurationError) in try G(parameters) }
    makePart = nil
  }

  /// Registers a request generator (one that can also be a `mix` part).
  public init<G: PatternGenerator>(pattern type: G.Type) {
    descriptor = G.descriptor
    generatorType = G.self
    make = { parameters throws(ConfigurationError) in try G(parameters) }
    makePart = { parameters throws(ConfigurationError) in try G(parameters) }
  }

  /// Parses `text` (`k=v,k=v`) against this generator's parameters.
  public func parseParameters(_ text: some StringProtocol) throws(ConfigurationError) -> Parameters {
    try Parameters(parsing: Substring(text), specs: descriptor.parameters, owner: descriptor.name)
  }

  /// The generator with `parameters`.
  public func generator(_ parameters: Parameters) throws(ConfigurationError) -> any TraceGenerator {
    try make(parameters)
  }
}
