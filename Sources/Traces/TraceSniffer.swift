import CacheCore

/// The first bytes of a trace (decompressed), as the format sniffers see them.
public struct TraceSample: Sendable {
  /// Up to 64 KiB from the start of the data.
  public let bytes: [UInt8]
  /// Size of the plain file, nil when compressed or not a regular file.
  public let fileSize: Int64?
  /// Whether the sample ends before the data does.
  public let isPartial: Bool

  /// Whether the bytes look like text: at least 99 % printable ASCII, tabs and line breaks.
  public let isText: Bool
  /// The complete lines of a text sample (the last one is dropped when the sample is partial);
  /// empty for binary data. Both are computed once, not by every format's sniffer.
  public let lines: [Substring]

  public init(bytes: [UInt8], fileSize: Int64?, isPartial: Bool) {
    self.bytes = bytes
    self.fileSize = fileSize
    self.isPartial = isPartial
    var printable = 0
    for byte in bytes where (byte >= 0x20 && byte < 0x7F) || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      printable += 1
    }
    isText = !bytes.isEmpty && printable * 100 >= bytes.count * 99
    guard isText else {
      lines = []
      return
    }
    // Classic Mac files end lines with `\r` alone.
    let crOnly = !bytes.contains(0x0A) && bytes.contains(0x0D)
    var split = bytes.split(separator: crOnly ? 0x0D : 0x0A, omittingEmptySubsequences: false)
    if isPartial || split.last?.isEmpty == true { split.removeLast() }
    lines = split.map { line in Substring(String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)) }
  }

  /// Whether this is text whose non-blank complete lines (at least one) all split, at
  /// `separator` (nil: runs of spaces and tabs), into fields that `accept` takes.
  public func everyLine(splitAt separator: Character? = nil, _ accept: ([Substring]) -> Bool) -> Bool {
    guard isText else { return false }
    let filled = lines.filter { !$0.allSatisfy(\.isWhitespace) }
    return !filled.isEmpty
      && filled.allSatisfy { line in
        let fields =
          separator.map { line.split(separator: $0, omittingEmptySubsequences: false) }
          ?? line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return accept(fields)
      }
  }

  /// Whole fixed-size records in the sample (all of the file's, when the size is known,
  /// must be a whole number of them).
  public func records(of size: Int) -> Int? {
    if let fileSize, fileSize % Int64(size) != 0 { return nil }
    let count = bytes.count / size
    return count > 0 ? count : nil
  }

  /// A little-endian integer at `offset`.
  public func little<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    var value: T = 0
    for index in 0..<MemoryLayout<T>.size { value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
    return value
  }

  /// A big-endian integer at `offset`.
  public func big<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    var value: T = 0
    for index in 0..<MemoryLayout<T>.size { value = value << 8 | T(truncatingIfNeeded: bytes[offset + index]) }
    return value
  }
}

/// How sure a format is that a sample is its own.
extension TraceSample {
  /// The first `count` lines that are not blank (text samples; empty for binary data).
  func leadingLines(_ count: Int) -> [Substring] {
    Array(lines.lazy.filter { !$0.allSatisfy { $0 == " " || $0 == "\r" || $0 == "\t" } }.prefix(count))
  }
}

public struct SniffVerdict: Sendable {
  /// 3: a signature (magic number, exact header); 2: every sampled record is valid and
  /// structured; 1: readable, but so is anything (key-only formats).
  public let confidence: Int
  /// Why, in a few words (the run header prints it).
  public let reason: String

  public init(_ confidence: Int, _ reason: String) {
    self.confidence = confidence
    self.reason = reason
  }
}

/// Decides a trace's format when `--format` is absent: by the file name's suffix (after a
/// compression suffix), else — for `*.trace`, `*.bin`, no suffix and the like — by asking
/// every format how plausible the first 64 KiB are. Cost: one open and one 64 KiB read.
public enum TraceSniffer {
  /// The outcome: a format and why it was chosen.
  public struct Detection: Sendable {
    public let format: TraceFormat
    /// `from the name (.csv)`, `from content: ...`; nil for a plain suffix match.
    public let reason: String?
    /// The compression the file is read through.
    public let compression: Compression?
  }

  /// Detects the format of `path`.
  ///
  /// - Throws: `ConfigurationError` when no format or more than one is plausible (usage
  ///   error: pass `--format`), ``TraceError`` when the file cannot be read.
  public static func detect(_ path: String) throws -> Detection {
    let identity = SniffMemo.identity(of: path)
    if let identity, let known = SniffMemo.lookup(identity) { return known }
    let detection = try sniff(path)
    if let identity { SniffMemo.remember(detection, for: identity) }
    return detection
  }

  /// Detects the format of `path` without the memo.
  private static func sniff(_ path: String) throws -> Detection {
    let byName = TraceFormat.inferred(from: path)
    let sample: TraceSample
    let compression: Compression?
    do {
      (sample, compression) = try Self.sample(path)
    } catch {
      // Unreadable: the name decides, and opening the trace reports the problem later.
      guard let byName else { throw error }
      return Detection(format: byName, reason: nil, compression: nil)
    }
    var verdicts: [(format: TraceFormat, verdict: SniffVerdict)] = []
    for format in TraceFormat.all {
      if let sniff = format.sniff, let verdict = sniff(sample) { verdicts.append((format, verdict)) }
    }
    verdicts.sort { $0.verdict.confidence > $1.verdict.confidence }
    if let byName {
      // A signature of another format wins over the name (a .csv file that is CacheLib's).
      if let top = verdicts.first, top.verdict.confidence == 3, top.format.name != byName.name {
        return Detection(format: top.format, reason: "from content: \(top.verdict.reason)", compression: compression)
      }
      return Detection(format: byName, reason: nil, compression: compression)
    }
    guard let best = verdicts.first else {
      throw ConfigurationError(
        .invalidValue,
        "cannot tell the format of '\(path)' from its name or its first bytes (\(sample.isText ? "text" : "binary")); pass --format (one of: \(TraceFormat.all.map(\.name).joined(separator: ", ")))"
      )
    }
    let rivals = verdicts.filter { $0.verdict.confidence == best.verdict.confidence }
    guard rivals.count == 1 else {
      throw ConfigurationError(
        .invalidValue,
        "the format of '\(path)' is ambiguous: "
          + rivals.map { "\($0.format.name) (\($0.verdict.reason))" }.joined(separator: " or ")
          + "; pass --format")
    }
    return Detection(format: best.format, reason: "from content: \(best.verdict.reason)", compression: compression)
  }

  /// The first 64 KiB of `path`, decompressed.
  static func sample(_ path: String) throws(TraceError) -> (TraceSample, Compression?) {
    let file = try ChunkedFile(path: path, bufferSize: 1 << 16)
    while file.available < 1 << 16, try file.refill() {}
    let count = min(file.available, 1 << 16)
    let bytes = [UInt8](UnsafeRawBufferPointer(start: file.cursor, count: count))
    let partial = file.available > count || !file.reachedEOF
    return (TraceSample(bytes: bytes, fileSize: file.regularFileSize, isPartial: partial), file.compression)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  var trimmedOfSpaces: String {
    let isSpace = { (c: Character) in c == " " || c == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
