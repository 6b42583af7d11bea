import CacheCore
import Traces

/// A trace made on the fly instead of read from a file: `gen:NAME[:k=v,...]` for any
/// registered generator (`gen:zipf:objects=N,requests=M,alpha=A`, `gen:loop:objects=N`,
/// `gen:mix:parts=...`). Each run generates it with the run's seed, so `--repeat` draws a fresh
/// trace per repeat.
public struct SyntheticTraceSpec: Sendable {
  /// The generator's registry entry.
  public let entry: GeneratorEntry
  /// Its parameters (defaults filled in).
  public let parameters: Parameters
  /// The generator itself.
  public let generator: any TraceGenerator

  /// Whether `text` names a synthetic trace.
  public static func matches(_ text: String) -> Bool { SyntheticTraceName.matches(text) }

  /// Parses the specification.
  ///
  /// - Throws: ``ConfigurationError`` for an unknown generator, key or value.
  public init(parsing text: String) throws(ConfigurationError) {
    guard Self.matches(text) else {
      throw ConfigurationError(.invalidValue, "synthetic trace '\(text)' must start with gen:")
    }
    let body = text.dropFirst(4)
    let colon = body.firstIndex(of: ":")
    entry = try GeneratorRegistry.entry(named: String(body[..<(colon ?? body.endIndex)]))
    parameters = try entry.parseParameters(colon.map { body[body.index(after: $0)...] } ?? "")
    generator = try entry.generator(parameters)
  }

  /// The format of the generated file (`oracle-general` or `cachelab`).
  public var format: String { entry.descriptor.outputFormat }

  /// A file name suffix that says the format.
  public var fileSuffix: String { format == "cachelab" ? ".cachelab.csv" : ".oracleGeneral.bin" }

  /// Writes the trace for `seed` to `path`.
  public func generate(seed: UInt64, to path: String) throws {
    try generator.write(seed: seed, to: path) { _, _ in }
  }
}
