import CacheCore

/// Settings of a ``LatencyModel`` that override a base, from a `--latency` SPEC such as
/// `memory=20us,disk=80us+1.2GB/s,disk-write=150us+800MB/s,origin=trace|45ms+25Mbit/s` or
/// a profile file's keys. `disk` sets both `disk-read` and `disk-write`; a specific key wins
/// over it whatever the order. O(length) to parse.
public struct LatencySpec: Sendable, Equatable {
  /// The keys a SPEC or profile may set.
  public enum Key: String, CaseIterable, Sendable {
    case memory
    case disk
    case diskRead = "disk-read"
    case diskReadAfterWrite = "disk-read-after-write"
    case diskWrite = "disk-write"
    case diskDelete = "disk-delete"
    case diskTouch = "disk-touch"
    case revalidation
    case origin
    case headers

    /// What the key sets, for help texts and errors.
    public var meaning: String {
      switch self {
      case .memory: return "a memory hit"
      case .disk: return "disk-read and disk-write together"
      case .diskRead: return "a disk hit's read"
      case .diskReadAfterWrite:
        return "a disk hit's read when the disk's last operation was a write (its fsync left the processor idle); "
          + "unset: disk-read"
      case .diskWrite: return "writing an object to disk (not on the request's path)"
      case .diskDelete: return "deleting an object's file (not on the request's path)"
      case .diskTouch: return "rewriting an object's access date on disk (not on the request's path)"
      case .revalidation: return "a conditional request with its response headers, or `origin` (its round trip)"
      case .origin:
        return "a full fetch: round trip + headers and body over the bandwidth; `trace|` first "
          + "takes the round trip from the trace's latency where a record has one"
      case .headers: return "bytes of response headers"
      }
    }

    /// Whether the key's cost may carry a `~SPREAD`: the disk costs a simulated disk charges.
    public var takesSpread: Bool { [.disk, .diskRead, .diskReadAfterWrite, .diskWrite].contains(self) }

    /// The key named `name`, or an error naming the keys (with a did-you-mean).
    public init(name: String) throws(ConfigurationError) {
      guard let key = Key(rawValue: name.lowercased()) else {
        let names = Key.allCases.map(\.rawValue)
        throw ConfigurationError(
          .unknownParameter,
          "'\(name)' is no latency key\(Spelling.suggestion(for: name, among: names)); keys: "
            + names.joined(separator: ", "))
      }
      self = key
    }
  }

  /// A parsed value.
  public enum Setting: Sendable, Equatable {
    case cost(LatencyCost)
    /// `origin=`: nil cost for a bare `trace`, which keeps the cost already set.
    case origin(LatencyCost?, fromTrace: Bool)
    /// `revalidation=origin`.
    case originRoundTrip
    case bytes(Int64)
  }

  /// The settings in the order given (each key at most once).
  public private(set) var settings: [(key: Key, value: Setting)] = []

  public init() {}

  /// Reads a comma-separated SPEC; an empty one sets nothing.
  public init(parsing text: String) throws(ConfigurationError) {
    for entry in text.split(separator: ",") where !entry.allSatisfy({ $0 == " " }) {
      guard let equals = entry.firstIndex(of: "=") else {
        throw ConfigurationError(.invalidValue, "'\(entry)' is no KEY=VALUE entry")
      }
      let name = String(entry[..<equals]).filter { $0 != " " }
      try set(try Key(name: name), text: String(entry[entry.index(after: equals)...]))
    }
  }

  public static func == (a: LatencySpec, b: LatencySpec) -> Bool {
    a.settings.map(\.key) == b.settings.map(\.key) && a.settings.map(\.value) == b.settings.map(\.value)
  }

  /// Adds `key` set to `text`; a key already set is an error.
  public mutating func set(_ key: Key, text: String) throws(ConfigurationError) {
    guard !settings.contains(where: { $0.key == key }) else {
      throw ConfigurationError(.invalidValue, "latency key '\(key.rawValue)' is given twice")
    }
    do throws(ConfigurationError) {
      let setting = try Self.setting(key, text.filter { $0 != " " })
      guard key.takesSpread || Self.spread(setting) == 1 else {
        throw ConfigurationError(
          .invalidValue,
          "'\(text)' has a ~SPREAD, which only the disk keys (disk, disk-read, disk-read-after-write, disk-write) take")
      }
      settings.append((key, setting))
    } catch {
      throw ConfigurationError(error.code, "\(key.rawValue): \(error.message)")
    }
  }

  private static func setting(_ key: Key, _ text: String) throws(ConfigurationError) -> Setting {
    switch key {
    case .headers:
      guard let bytes = ByteCount.parse(text), bytes <= 1 << 30 else {
        throw ConfigurationError(.invalidValue, "'\(text)' is no byte count of at most 1GiB (write it as 300B or 1KiB)")
      }
      return .bytes(bytes)
    case .revalidation where text.lowercased() == "origin": return .originRoundTrip
    case .origin:
      let lowered = text.lowercased()
      if lowered == "trace" { return .origin(nil, fromTrace: true) }
      if lowered.hasPrefix("trace|") {
        return .origin(try LatencyCost.parse(String(text.dropFirst(6))), fromTrace: true)
      }
      return .origin(try LatencyCost.parse(text), fromTrace: false)
    default: return .cost(try LatencyCost.parse(text))
    }
  }

  /// The spread of a parsed cost, 1 for none.
  private static func spread(_ setting: Setting) -> Double {
    switch setting {
    case .cost(let cost): return cost.spread
    case .origin(let cost, _): return cost?.spread ?? 1
    case .originRoundTrip, .bytes: return 1
    }
  }

  /// `model` with these settings over it (`disk` first, so a specific disk key wins).
  public func applied(to model: LatencyModel) -> LatencyModel {
    var model = model
    let ordered = settings.filter { $0.key == .disk } + settings.filter { $0.key != .disk }
    for (key, value) in ordered {
      switch (key, value) {
      case (.memory, .cost(let cost)): model.memory = cost
      case (.disk, .cost(let cost)): (model.diskRead, model.diskWrite) = (cost, cost)
      case (.diskRead, .cost(let cost)): model.diskRead = cost
      case (.diskReadAfterWrite, .cost(let cost)): model.diskReadAfterWrite = cost
      case (.diskWrite, .cost(let cost)): model.diskWrite = cost
      case (.diskDelete, .cost(let cost)): model.diskDelete = cost
      case (.diskTouch, .cost(let cost)): model.diskTouch = cost
      case (.revalidation, .cost(let cost)): model.revalidation = cost
      case (.revalidation, .originRoundTrip): model.revalidation = nil
      case (.origin, .origin(let cost, let fromTrace)):
        model.origin = cost ?? model.origin
        model.originFromTrace = fromTrace
      case (.headers, .bytes(let bytes)): model.headerBytes = bytes
      default: preconditionFailure("latency key \(key) cannot hold \(value)")
      }
    }
    return model
  }
}
