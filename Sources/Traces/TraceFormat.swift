import CacheCore

/// A registered trace format: its name, parameters and a function that opens a reader.
///
/// Each format lives in one file under `Formats/` as a `static let` on this type, plus
/// one line in ``TraceFormat/all``.
public struct TraceFormat: Sendable {
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
  let opener: @Sendable (String, Parameters) throws(TraceError) -> any TraceReader

  init(
    name: String, aliases: [String] = [], summary: String, parameters: [ParameterSpec] = [],
    fileSuffixes: [String] = [], traits: TraceTraits,
    open: @escaping @Sendable (String, Parameters) throws(TraceError) -> any TraceReader
  ) {
    self.name = name
    self.aliases = aliases
    self.summary = summary
    self.parameters = parameters
    self.fileSuffixes = fileSuffixes
    self.traits = traits
    self.opener = open
  }

  /// Every supported format, in the order help texts list them.
  public static let all: [TraceFormat] = [
    .oracleGeneral,
    .vscsi,
    .csv,
    .txt,
    .int32BigEndian,
    .int64BigEndian,
    .idSize,
    .cacheLab,
    .cacheLib,
  ]

  /// The format named `name` (or an alias), case-insensitively.
  ///
  /// - Throws: ``ConfigurationError`` listing the known formats.
  public static func named(_ name: String) throws(ConfigurationError) -> TraceFormat {
    let key = name.lowercased()
    if let format = all.first(where: { $0.name == key || $0.aliases.contains(key) }) { return format }
    throw ConfigurationError(
      .unknownName,
      "unknown trace format '\(name)'\(Spelling.suggestion(for: name, among: all.map(\.name))); known formats: "
        + all.map(\.name).joined(separator: ", "))
  }

  /// The format whose file-name ending matches `path`, if exactly one does.
  public static func inferred(from path: String) -> TraceFormat? {
    let lowered = path.lowercased()
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
  /// - Throws: ``ConfigurationError`` for an unknown format or parameter.
  public init(parsing text: String) throws(ConfigurationError) {
    let colon = text.firstIndex(of: ":")
    let name = String(colon.map { text[..<$0] } ?? Substring(text))
    format = try TraceFormat.named(name)
    parameters = try Parameters(
      parsing: colon.map { text[text.index(after: $0)...] } ?? "", specs: format.parameters,
      owner: format.name)
  }

  /// A spec for `format` with default parameters.
  public init(_ format: TraceFormat) {
    self.format = format
    // Defaults always validate.
    parameters = (try? Parameters(specs: format.parameters, owner: format.name))!
  }

  /// The spec `format` names, or, when it is nil, the format `path`'s name implies.
  ///
  /// - Throws: ``ConfigurationError`` for a bad `format` or a name that says nothing.
  public init(format: String?, inferringFrom path: String) throws(ConfigurationError) {
    if let format {
      try self.init(parsing: format)
    } else if let inferred = TraceFormat.inferred(from: path) {
      self.init(inferred)
    } else {
      throw ConfigurationError(
        .invalidValue,
        "cannot tell the format of '\(path)' from its name; pass --format (one of: \(TraceFormat.all.map(\.name).joined(separator: ", ")))"
      )
    }
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
