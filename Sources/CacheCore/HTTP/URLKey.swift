/// What a URL trace key says about its request, for library caches that decide or key by
/// the URL's parts: the scheme (MKNetworkKit skips HTTPS), credentials in the URL, and the
/// host + port + path identity that swift-corelibs-foundation's `URLCache` keys by.
///
/// Parsed once per trace row from the key's bytes (`scheme://[user[:pass]@]host[:port][/path][?query][#fragment]`),
/// without allocating. A key that is not such a URL leaves every field at its default.
@frozen
public struct URLKey: Equatable, Sendable {
  /// The URL scheme, as far as caches care.
  @frozen
  public enum Scheme: UInt8, Sendable {
    /// The key is not a URL.
    case none
    case http
    case https
    /// Any other scheme (`ftp`, `file`, `data`, ...).
    case other
  }

  public var scheme: Scheme = .none
  /// Whether the URL carries `user[:password]@` credentials.
  public var hasCredentials = false
  /// Hash of the lowercased host, the port (or -1 when absent) and the path as Foundation's
  /// `URL.path` reads it (percent-decoded, no trailing slash), 0 when the key has no host: two
  /// URLs differing only in scheme, query, fragment or such spelling share it.
  public var resource: UInt64 = 0
  /// Bytes of the URL (0 when the key is not a URL).
  public var length: Int32 = 0
  /// Whether the URL has a query (`?`).
  public var hasQuery = false

  @inlinable public init() {}

  /// Parses `text` (see the type's description); cost: one pass over the bytes.
  public init(parsing text: UnsafeRawBufferPointer) {
    self.init()
    guard let schemeEnd = Self.schemeEnd(text) else { return }
    scheme = Self.scheme(UnsafeRawBufferPointer(rebasing: text[..<schemeEnd]))
    length = Int32(clamping: text.count)
    var start = schemeEnd + 3
    var end = start
    while end < text.count, text[end] != UInt8(ascii: "/"), text[end] != UInt8(ascii: "?"),
      text[end] != UInt8(ascii: "#")
    {
      end += 1
    }
    // Authority: [userinfo@]host[:port]
    var at = end
    while at > start {
      at -= 1
      if text[at] == UInt8(ascii: "@") {
        hasCredentials = true
        start = at + 1
        break
      }
    }
    var hostEnd = end
    var port: Int64 = -1
    if let colon = Self.portColon(text, start, end) {
      hostEnd = colon
      var value: Int64 = 0
      var digits = 0
      for index in (colon + 1)..<end where digits < 6 {
        let byte = text[index]
        guard byte >= 0x30, byte <= 0x39 else { break }
        value = value * 10 + Int64(byte - 0x30)
        digits += 1
      }
      if digits > 0 { port = value }
    }
    guard hostEnd > start else { return }
    var pathEnd = end
    while pathEnd < text.count, text[pathEnd] != UInt8(ascii: "?"), text[pathEnd] != UInt8(ascii: "#") {
      pathEnd += 1
    }
    hasQuery = pathEnd < text.count && text[pathEnd] == UInt8(ascii: "?")
    var hash = KeyHash.Streaming()
    var hostStart = start
    if text[hostStart] == UInt8(ascii: "["), text[hostEnd - 1] == UInt8(ascii: "]"), hostEnd - hostStart > 2 {
      hostStart += 1
      hostEnd -= 1
    }
    for index in hostStart..<hostEnd {
      let byte = text[index]
      hash.add(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
    }
    hash.add(UInt8(0))
    hash.addInteger(port)
    hash.add(UInt8(0))
    Self.addPath(UnsafeRawBufferPointer(rebasing: text[end..<pathEnd]), to: &hash)
    resource = hash.value == 0 ? 1 : hash.value
  }

  /// Adds the path as Foundation's `URL.path` gives it: percent-decoded, trailing slashes
  /// dropped (a path of only slashes is `/`).
  private static func addPath(_ path: UnsafeRawBufferPointer, to hash: inout KeyHash.Streaming) {
    var pendingSlashes = 0
    var emitted = false
    var index = 0
    while index < path.count {
      var byte = path[index]
      index += 1
      if byte == UInt8(ascii: "%"), index + 1 < path.count, let high = hexValue(path[index]),
        let low = hexValue(path[index + 1])
      {
        byte = high << 4 | low
        index += 2
      }
      if byte == UInt8(ascii: "/") {
        pendingSlashes += 1
        continue
      }
      for _ in 0..<pendingSlashes { hash.add(UInt8(ascii: "/")) }
      pendingSlashes = 0
      hash.add(byte)
      emitted = true
    }
    if !emitted, pendingSlashes > 0 { hash.add(UInt8(ascii: "/")) }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }

  /// Parses the UTF-8 bytes of `string`.
  public init(parsing string: String) {
    var copy = string
    self = copy.withUTF8 { URLKey(parsing: UnsafeRawBufferPointer($0)) }
  }

  /// The index of `:` in a leading `scheme://`, or nil.
  private static func schemeEnd(_ text: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    while index < text.count, index < 32 {
      let byte = text[index]
      let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
      let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
      if byte == UInt8(ascii: ":") {
        guard index > 0, index + 2 < text.count, text[index + 1] == 0x2F, text[index + 2] == 0x2F else { return nil }
        return index
      }
      guard isLetter || (index > 0 && isOther) else { return nil }
      index += 1
    }
    return nil
  }

  private static func scheme(_ name: UnsafeRawBufferPointer) -> Scheme {
    func equals(_ literal: StaticString) -> Bool {
      guard name.count == literal.utf8CodeUnitCount else { return false }
      for index in 0..<name.count where name[index] | 0x20 != literal.utf8Start[index] { return false }
      return true
    }
    if equals("http") { return .http }
    if equals("https") { return .https }
    return .other
  }

  /// The colon before a port in `text[start..<end]` (not inside an IPv6 `[...]` literal).
  private static func portColon(_ text: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
    var index = end
    while index > start {
      index -= 1
      if text[index] == UInt8(ascii: "]") { return nil }
      if text[index] == UInt8(ascii: ":") { return index }
    }
    return nil
  }
}
