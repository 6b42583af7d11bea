/// A compression wrapper around a trace, recognised by its first bytes (and named by its
/// file suffix): traces are read through the decoder whatever their format.
public enum Compression: String, Sendable, CaseIterable {
  case zstd
  case xz
  case gzip

  /// File suffixes, lowercased, that name the compression (stripped before a format is
  /// inferred from the rest of the name).
  public var suffixes: [String] {
    switch self {
    case .zstd: return [".zst", ".zstd"]
    case .xz: return [".xz"]
    case .gzip: return [".gz", ".gzip"]
    }
  }

  /// Bytes needed by ``detect(_:)``.
  static let magicLength = 6

  /// The compression whose magic number starts `prefix`, or nil for plain data. zstd
  /// frames start `28 B5 2F FD` (skippable frames `5? 2A 4D 18`), xz streams
  /// `FD 37 7A 58 5A 00`, gzip members `1F 8B`.
  static func detect(_ prefix: UnsafeRawBufferPointer) -> Compression? {
    let bytes = Array(prefix.prefix(magicLength))
    if bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
    if bytes.count >= 4, bytes[0] & 0xF0 == 0x50, bytes[1...3].elementsEqual([0x2A, 0x4D, 0x18]) { return .zstd }
    if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
    if bytes.starts(with: [0x1F, 0x8B]) { return .gzip }
    return nil
  }

  /// The compression `path`'s suffix names, if any.
  public static func named(byPath path: String) -> Compression? {
    let lowered = path.lowercased()
    return allCases.first { kind in kind.suffixes.contains { lowered.hasSuffix($0) } }
  }

  /// `path` without a compression suffix (`a.oracleGeneral.bin.zst` → `a.oracleGeneral.bin`).
  public static func strippingSuffix(_ path: String) -> String {
    guard let kind = named(byPath: path) else { return path }
    let suffix = kind.suffixes.first { path.lowercased().hasSuffix($0) }!
    return String(path.dropLast(suffix.count))
  }

  /// A decoder of this kind reading compressed bytes from `input`, which already delivered
  /// `prefix` (the bytes read to detect the compression).
  func decoder(path: String, input: FileDescriptorSource, prefix: UnsafeRawBufferPointer) throws(TraceError)
    -> any ByteSource
  {
    switch self {
    case .zstd: return try ZstdSource(path: path, input: input, prefix: prefix)
    case .xz: return try XZSource(path: path, input: input, prefix: prefix)
    case .gzip: return try GzipSource(path: path, input: input, prefix: prefix)
    }
  }
}
