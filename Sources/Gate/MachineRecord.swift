import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where and by what a baseline's speed figures were measured: host, CPU model, cores, OS,
/// Swift compiler and build configuration, the date, and the source commit when the baseline
/// folder is in a git checkout. Kept as `machine.txt` beside the baseline reports, one
/// `key: value` per line. Reading this machine costs a few small file reads.
public struct MachineRecord: Sendable, Equatable {
  /// The file's name in a baseline folder.
  public static let fileName = "machine.txt"

  public var host: String
  public var cpu: String
  public var cores: Int
  public var os: String
  public var swift: String
  /// `release` or `debug`.
  public var build: String
  /// When the figures were measured (UTC, ISO 8601); empty when not recorded.
  public var made: String = ""
  /// The checkout's commit, or `unknown`.
  public var commit: String = "unknown"
  /// `clean`, `modified` (files other than the baseline differ from the commit) or `unknown`.
  public var tree: String = "unknown"

  /// The keys in file order, with what each holds (for messages).
  static let keys = ["made", "commit", "tree", "host", "cpu", "cores", "os", "swift", "build"]

  /// Whether `other` is the same kind of machine and build: every field but the date and commit.
  public func sameMachine(as other: MachineRecord) -> Bool {
    (host, cpu, cores, os, swift, build) == (other.host, other.cpu, other.cores, other.os, other.swift, other.build)
  }

  /// One line: `vm (AMD EPYC, 2 cores, Linux 6.1 Debian 12, Swift 6.3, release build)`.
  public var summary: String { "\(host) (\(cpu), \(cores) cores, \(os), Swift \(swift), \(build) build)" }

  /// The file's text.
  public func render() -> String {
    var text = "# Where this baseline's speed figures were measured (cachelab regress --create / --update).\n"
    let values = [made, commit, tree, host, cpu, String(cores), os, swift, build]
    for (key, value) in zip(Self.keys, values) { text += "\(key): \(value)\n" }
    return text
  }

  /// Writes the record into baseline folder `directory` (atomically).
  public func write(into directory: String) throws(FileError) {
    let writer = try AtomicFileWriter(path: directory + "/" + Self.fileName)
    try writer.write(render())
    try writer.commit()
  }

  /// The record in baseline folder `directory`, or nil when it has none.
  ///
  /// - Throws: ``FileError`` naming `path:line` for a line that is not `key: value` with a
  ///   known key, a repeated or missing key, or a core count that is not a number.
  public static func read(from directory: String) throws(FileError) -> MachineRecord? {
    let path = directory + "/" + fileName
    guard access(path, F_OK) == 0 else { return nil }
    return try parse(try ChildProcess.readText(path), path: path)
  }

  /// Parses a record's text (named `path` in messages).
  public static func parse(_ text: String, path: String) throws(FileError) -> MachineRecord {
    var values: [String: String] = [:]
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingSpaces
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard let colon = trimmed.firstIndex(of: ":") else {
        throw FileError(path: "\(path):\(index + 1)", "expected 'key: value', found '\(trimmed)'")
      }
      let key = String(trimmed[..<colon]).trimmingSpaces
      guard keys.contains(key) else {
        throw FileError(
          path: "\(path):\(index + 1)", "unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
      }
      guard values[key] == nil else { throw FileError(path: "\(path):\(index + 1)", "'\(key)' appears twice") }
      values[key] = String(trimmed[trimmed.index(after: colon)...]).trimmingSpaces
    }
    let missing = keys.filter { values[$0] == nil }
    guard missing.isEmpty else { throw FileError(path: path, "missing \(missing.joined(separator: ", "))") }
    guard let cores = Int(values["cores"]!) else {
      throw FileError(path: path, "cores '\(values["cores"]!)' is not a number")
    }
    return MachineRecord(
      host: values["host"]!, cpu: values["cpu"]!, cores: cores, os: values["os"]!, swift: values["swift"]!,
      build: values["build"]!, made: values["made"]!, commit: values["commit"]!, tree: values["tree"]!)
  }
}

extension MachineRecord {
  /// This machine and this build, now; the commit is the one checked out around `directory`.
  public static func current(checkout directory: String? = nil) -> MachineRecord {
    var record = MachineRecord(
      host: hostName, cpu: cpuModel, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), os: operatingSystem,
      swift: swiftCompiler, build: buildConfiguration, made: Self.now())
    if let directory, let (commit, tree) = gitState(of: directory) { (record.commit, record.tree) = (commit, tree) }
    return record
  }

  /// `release` or `debug`: how this executable was compiled.
  public static var buildConfiguration: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  /// The compiler's version, to the minor release.
  static var swiftCompiler: String {
    #if compiler(>=7.0)
      return "7.0 or later"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #elseif compiler(>=6.1)
      return "6.1"
    #else
      return "6.0 or earlier"
    #endif
  }

  static var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The CPU's model name (`/proc/cpuinfo` on Linux, `machdep.cpu.brand_string` on macOS).
  static var cpuModel: String {
    #if os(Linux)
      let info = (try? ChildProcess.readText("/proc/cpuinfo")) ?? ""
      for key in ["model name", "Model", "Hardware", "cpu model"] {
        for line in info.split(separator: "\n") where line.hasPrefix(key) {
          if let colon = line.firstIndex(of: ":") {
            let value = String(line[line.index(after: colon)...]).trimmingSpaces
            if !value.isEmpty { return value }
          }
        }
      }
      return machineArchitecture
    #else
      var size = 0
      guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else {
        return machineArchitecture
      }
      var buffer = [CChar](repeating: 0, count: size)
      guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return machineArchitecture }
      return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
  }

  static var machineArchitecture: String {
    var name = utsname()
    uname(&name)
    return withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }

  /// Kernel name and release, and the distribution's name where `/etc/os-release` gives it.
  static var operatingSystem: String {
    var name = utsname()
    uname(&name)
    let system = withUnsafeBytes(of: name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    var text = "\(system) \(release)"
    if let release = try? ChildProcess.readText("/etc/os-release") {
      for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
        text += " " + line.dropFirst("PRETTY_NAME=".count).filter { $0 != "\"" }
      }
    }
    return text
  }

  /// Now as `2026-11-26T19:33:56Z`.
  public static func now() -> String {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }

  /// The commit checked out around `directory` and whether files other than `directory`'s
  /// differ from it; nil outside a git checkout or without git.
  static func gitState(of directory: String) -> (commit: String, tree: String)? {
    let scratch = ScratchDirectory.make(purpose: "git")
    defer { scratch.map(ScratchDirectory.remove) }
    guard let scratch,
      let head = ChildProcess.output(of: "git", ["-C", directory, "rev-parse", "HEAD"], scratch: scratch)?
        .trimmingSpaces,
      head.count >= 40
    else { return nil }
    let status = ChildProcess.output(
      of: "git", ["-C", directory, "status", "--porcelain", "--", ":/", ":!."], scratch: scratch)
    return (head, status.map { $0.trimmingSpaces.isEmpty ? "clean" : "modified" } ?? "unknown")
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line ends.
  var trimmingSpaces: String {
    let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\r" || c == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
