import Synchronization

/// What a ``Registry`` needs of its entries: a name, aliases, a one-line summary and the
/// parameters a `name:key=value,...` spec may set.
public protocol RegistryEntry: Sendable {
  /// The name a spec uses (lowercase).
  var name: String { get }
  /// Other names the entry answers to (libCacheSim's spellings, short forms).
  var aliases: [String] { get }
  /// One line for listings and tables.
  var summary: String { get }
  var parameters: [ParameterSpec] { get }
}

/// One named, ordered set of entries (policies, trace formats, presets, expiry rules, generators): lookup by
/// name or alias with a did-you-mean, `name:key=value,...` specs, the aligned listing the
/// `cachelab` listing commands print and Markdown tables for docs/. Built-in entries come
/// first; a program using CacheLab as a library adds its own with ``register(_:)``.
/// Thread-safe; lookups are O(entries).
public final class Registry<Entry: RegistryEntry>: Sendable {
  /// What one entry is called in messages (`policy`, `trace format`).
  public let kind: String
  /// The plural in messages (`policies`, `formats`).
  public let plural: String
  private let entries: Mutex<[Entry]>
  /// Said in place of the known names when a lookup finds the registry empty.
  private let emptyNote: String?

  /// A registry holding `builtIn`; `emptyNote` explains an empty one in lookup errors.
  public init(kind: String, plural: String, _ builtIn: [Entry], emptyNote: String? = nil) {
    self.kind = kind
    self.plural = plural
    self.emptyNote = emptyNote
    entries = Mutex(builtIn)
  }

  /// Every entry in listing order: the built-ins, then registrations in the order made.
  public var all: [Entry] { entries.withLock { $0 } }

  /// Adds `entry` after the others.
  ///
  /// - Throws: ``ConfigurationError`` when its name or an alias is taken.
  public func register(_ entry: Entry) throws(ConfigurationError) {
    let names = Set([entry.name.lowercased()] + entry.aliases.map { $0.lowercased() })
    let taken: String? = entries.withLock { entries in
      if let clash = entries.first(where: { !names.isDisjoint(with: [$0.name] + $0.aliases) }) { return clash.name }
      entries.append(entry)
      return nil
    }
    if let taken {
      throw ConfigurationError(
        .invalidValue, "cannot register \(kind) '\(entry.name)': the name is taken by \(kind) '\(taken)'")
    }
  }

  /// The entry named `name` or one of its aliases, case-insensitively.
  ///
  /// - Throws: ``ConfigurationError`` with the closest name and the known ones.
  public func named(_ name: String) throws(ConfigurationError) -> Entry {
    let key = name.lowercased()
    let entries = all
    if let entry = entries.first(where: { $0.name == key || $0.aliases.contains(key) }) { return entry }
    if entries.isEmpty, let emptyNote {
      throw ConfigurationError(.unknownName, "unknown \(kind) '\(name)': \(emptyNote)")
    }
    throw ConfigurationError(
      .unknownName,
      "unknown \(kind) '\(name)'" + Spelling.suggestion(for: name, among: entries.flatMap { [$0.name] + $0.aliases })
        + "; known \(plural): " + entries.map(\.name).joined(separator: ", "))
  }

  /// The entry and validated parameters (defaults filled in) of `name[:key=value,...]`.
  ///
  /// - Throws: ``ConfigurationError`` for an empty or unknown name or a bad parameter.
  public func parse(_ text: String) throws(ConfigurationError) -> (entry: Entry, parameters: Parameters) {
    let colon = text.firstIndex(of: ":")
    let name = (colon.map { text[..<$0] } ?? Substring(text)).trimmingCharacters()
    guard !name.isEmpty else { throw ConfigurationError(.invalidValue, "empty \(kind) name in '\(text)'") }
    let entry = try named(name)
    let parameters = try Parameters(
      parsing: colon.map { text[text.index(after: $0)...] } ?? "", specs: entry.parameters, owner: entry.name)
    return (entry, parameters)
  }

  /// The listing a `cachelab` listing command prints: each name padded to the longest, its
  /// summary, then indented lines per parameter (`parameter` renders one) and `details`.
  public func listing(
    parameter: (ParameterSpec) -> String = { "\($0.name)=\($0.defaultValue)  \($0.help)" },
    details: (Entry) -> [String] = { _ in [] }
  ) -> String {
    let entries = all
    let width = entries.map(\.name.count).max() ?? 0
    let indent = String(repeating: " ", count: width + 2)
    var text = ""
    for entry in entries {
      text += entry.name + String(repeating: " ", count: width - entry.name.count) + "  " + entry.summary + "\n"
      for spec in entry.parameters { text += indent + parameter(spec) + "\n" }
      for line in details(entry) { text += indent + line + "\n" }
    }
    return text
  }

  /// A Markdown table with one row per entry; `columns` are (header, cell) pairs (a `|` in a
  /// cell is escaped).
  public func markdownTable(_ columns: [(header: String, cell: (Entry) -> String)]) -> String {
    var text = "| " + columns.map(\.header).joined(separator: " | ") + " |\n"
    text += "|" + String(repeating: "---|", count: columns.count) + "\n"
    for entry in all {
      let cells = columns.map { $0.cell(entry).split(separator: "|", omittingEmptySubsequences: false) }
      text += "| " + cells.map { $0.joined(separator: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return text
  }
}

extension RegistryEntry {
  /// Each parameter as `name=default` in code spans, then `(aliases: a, b)`, or `—` when there
  /// are neither: the parameters cell of the docs' registry tables.
  public var parametersCell: String {
    var cell = parameters.map { "`\($0.name)=\($0.defaultValue)`" }.joined(separator: ", ")
    if !aliases.isEmpty { cell += (cell.isEmpty ? "" : " ") + "(aliases: \(aliases.joined(separator: ", ")))" }
    return cell.isEmpty ? "—" : cell
  }
}
