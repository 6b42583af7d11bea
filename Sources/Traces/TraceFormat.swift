import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A registered trace format: its name, parameters and a function that opens a reader.
///
/// Each format lives in one file under `Formats/` as a `static let` on this type, plus
/// one line in ``TraceFormat/all``.
public struct TraceFormat: RegistryEntry {
  /// Name used with `--format` (lowercase, dashes).
  public let name: String
  /// Other accepted names.
  public let aliases: [String]
  /// One line: the layout.
  public let summary: String
  /// `key=value` parameters (`--format csv:key-col=2`).
  public let parameters: [ParameterSpec]
  /// Lowercased file-name endings that identify the format when `--format` is omitted.
  public let fileSuffixes: [String]
  /// What the format carries with its default parameters.
  public let traits: TraceTraits
  /// How plausible a sample of a trace is in this format (nil: not this format); used when
  /// the file name does not tell (see ``TraceSniffer``).
  let sniff: (@Sendable (TraceSample) -> SniffVerdict?)?
  let opener: @Sendable (String, Parameters) throws(TraceError) -> any TraceReader
  /// Checks parameter values beyond their kind (a log format that does not compile), so that a
  /// bad one is a usage error before any file is opened.
  let check: (@Sendable (Parameters) throws(ConfigurationError) -> Void)?

  init(
    name: String, aliases: [String] = [], summary: String, parameters: [ParameterSpec] = [],
    fileSuffixes: [String] = [], traits: TraceTraits, sniff: (@Sendable (TraceSample) -> SniffVerdict?)? = nil,
    check: (@Sendable (Parameters) throws(ConfigurationError) -> Void)? = nil,
    open: @escaping @Sendable (String, Parameters) throws(TraceError) -> any TraceReader
  ) {
    self.sniff = sniff
    self.check = check
    self.name = name
    self.aliases = aliases
    self.summary = summary
    self.parameters = parameters
    self.fileSuffixes = fileSuffixes
    self.traits = traits
    self.opener = open
  }

  /// The registry: every built-in format, in the order help texts list them.
  public static let registry = Registry<TraceFormat>(
    kind: "trace format", plural: "formats",
    [
      .oracleGeneral,
      .vscsi,
      .csv,
      .txt,
      .int32BigEndian,
      .int64BigEndian,
      .idSize,
      .cacheLab,
      .accessLog,
      .squid,
      .w3c,
      .har,
      .cacheLib,
      .lcs,
      .oracleSysTwrNS,
      .oracleSimTwrNS,
      .oracleGeneralOpNS,
      .oracleCF1,
      .oracleAkamai,
      .oracleWiki16u,
      .oracleWiki19u,
      .twr,
      .twrNS,
      .wiki16u,
      .wiki19u,
      .wiki19t,
      .msr,
      .arc,
    ])

  /// Every format, in listing order.
  public static var all: [TraceFormat] { registry.all }

  /// The format named `name` (or an alias), case-insensitively.
  ///
  /// - Throws: `ConfigurationError` listing the known formats.
  public static func named(_ name: String) throws(ConfigurationError) -> TraceFormat {
    try registry.named(name)
  }

  /// The format whose file-name ending matches `path` (after any compression suffix such
  /// as `.zst`), if one does; the longest matching ending wins.
  public static func inferred(from path: String) -> TraceFormat? {
    let lowered = Compression.strippingSuffix(path).lowercased()
    var best: (format: TraceFormat, length: Int)?
    for format in all {
      for suffix in format.fileSuffixes where lowered.hasSuffix(suffix) {
        if best == nil || suffix.count > best!.length { best = (format, suffix.count) }
      }
    }
    return best?.format
  }

  /// Opens `path` for streaming with `parameters` (validated against ``parameters``).
  public func open(_ path: String, parameters: Parameters) throws(TraceError) -> any TraceReader {
    try opener(path, parameters)
  }
}

/// A format chosen on the command line: `name` or `name:key=value,...`.
public struct TraceSpec: Sendable, CustomStringConvertible {
  /// The format.
  public let format: TraceFormat
  /// Its validated parameters.
  public let parameters: Parameters

  /// Parses `name[:k=v,...]`.
  ///
  /// - Throws: `ConfigurationError` for an unknown format or parameter.
  public init(parsing text: String) throws(ConfigurationError) {
    (format, parameters) = try TraceFormat.registry.parse(text)
    try format.check?(parameters)
  }

  /// A spec for `format` with default parameters.
  public init(_ format: TraceFormat) {
    self.format = format
    // Defaults always validate.
    parameters = (try? Parameters(specs: format.parameters, owner: format.name))!
  }

  /// How the format was chosen and what wraps the data, when not plain: `zstd`,
  /// `from content: 24-byte records, ...` (the run header prints it).
  public private(set) var note: String?

  /// The spec `format` names, or, when it is nil, the one ``TraceSniffer`` detects for `path`
  /// (by name, else by content).
  ///
  /// - Throws: `ConfigurationError` for a bad `format` or a file whose format cannot be
  ///   told; ``TraceError`` when the file cannot be read to tell.
  public init(format: String?, inferringFrom path: String) throws {
    if let format {
      try self.init(parsing: format)
      note = Compression.named(byPath: path).map(\.rawValue)
      return
    }
    let detection = try TraceSniffer.detect(path)
    self.init(detection.format)
    note = [detection.compression?.rawValue, detection.reason].compactMap { $0 }.joined(separator: ", ")
    if note?.isEmpty == true { note = nil }
  }

  /// Splits `FORMAT:PATH` (Caffeine's simulator's shorthand, e.g. `lirs-txt:cpp.trace`)
  /// into a format and a path when `trace` is not itself a file and starts with a known
  /// format name; otherwise returns `trace` unchanged.
  public static func shorthand(_ trace: String) -> (format: String?, path: String) {
    guard let colon = trace.firstIndex(of: ":"), access(trace, F_OK) != 0,
      (try? TraceFormat.named(String(trace[..<colon]))) != nil
    else { return (nil, trace) }
    return (String(trace[..<colon]), String(trace[trace.index(after: colon)...]))
  }

  /// Opens `path` in this format.
  public func open(_ path: String) throws(TraceError) -> any TraceReader {
    try format.open(path, parameters: parameters)
  }

  /// `name` or `name:k=v,...` with the explicitly set parameters.
  public var description: String {
    let explicit = parameters.specs.filter { parameters.isExplicit($0.name) }
    guard !explicit.isEmpty else { return format.name }
    return format.name + ":" + explicit.map { "\($0.name)=\(parameters.string($0.name))" }.joined(separator: ",")
  }
}
