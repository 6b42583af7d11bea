import CacheCore

#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import CCrypto
#endif

/// Replaces what a URL says by keyed hashes (HMAC-SHA-256 under a salt, 60 bits written as
/// 12 base-32 letters) while keeping what caches act on: the scheme, the port, that the URL
/// had credentials (not what they were), the path's depth and slashes, the last segment's
/// extension, and whether there is a query or a fragment. Equal URLs stay equal; two URLs
/// name the same resource (host, port, percent-decoded path) after exactly when they did
/// before, because the host is hashed lower-cased and the path segment by segment after
/// percent-decoding. Two spellings of one resource that would come out alike (`%41` and `A`)
/// are told apart by a fragment tag. Memory: one entry per distinct URL; cost: one HMAC per
/// URL part.
public struct URLAnonymizer {
  private let key: [UInt8]
  /// Hash of an anonymized URL → hash of the URL it came from (to tell spellings apart).
  private var origins: [UInt64: UInt64] = [:]

  /// An anonymizer keyed by `salt` (the same salt gives the same names in every file).
  public init(salt: [UInt8]) {
    key = salt
  }

  /// An anonymizer with a random 256-bit salt (names differ from run to run).
  public static func randomlySalted() -> URLAnonymizer {
    var generator = SystemRandomNumberGenerator()
    return URLAnonymizer(salt: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// The anonymized form of `url` (absolute, or a path when the record had no host).
  public mutating func anonymize(_ url: String) -> String {
    var rest = Substring(url)
    var result = ""
    if let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
      rest[..<colon].allSatisfy(Self.isSchemeCharacter), rest[colon...].hasPrefix("://")
    {
      result = rest[..<colon] + "://"
      rest = rest[rest.index(colon, offsetBy: 3)...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
      result += authority(rest[..<authorityEnd])
      rest = rest[authorityEnd...]
    }
    let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
    result += path(rest[..<pathEnd])
    rest = rest[pathEnd...]
    var hasFragment = false
    if rest.first == "?" {
      let queryEnd = rest.firstIndex(of: "#") ?? rest.endIndex
      let query = rest.dropFirst()[..<queryEnd]
      result += "?" + (query.isEmpty ? "" : token(Array(query.utf8)))
      rest = rest[queryEnd...]
    }
    if rest.first == "#" {
      hasFragment = true
      result += "#" + (rest.count > 1 ? token(Array(rest.dropFirst().utf8)) : "")
    }
    let anonymized = KeyHash.hash(result)
    let original = KeyHash.hash(url)
    if let earlier = origins[anonymized], earlier != original {
      result += (hasFragment ? "~" : "#") + token(Array(url.utf8))
    } else {
      origins[anonymized] = original
    }
    return result
  }

  /// The anonymized form of an entity tag known by its hash.
  public func validator(_ hash: UInt64) -> String {
    token(withUnsafeBytes(of: hash.littleEndian) { Array($0) })
  }

  /// `[credentials@]host[:port]`: the host hashed lower-cased, credentials reduced to `u@`.
  private func authority(_ text: Substring) -> String {
    var host = text
    var result = ""
    if let at = host.lastIndex(of: "@") {
      result = "u@"
      host = host[host.index(after: at)...]
    }
    var port = ""
    if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
      port = String(host[colon...])
      host = host[..<colon]
    }
    if host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 { host = host.dropFirst().dropLast() }
    // No host is no resource: it stays empty. ASCII letters only are folded, as URLKey does.
    guard !host.isEmpty else { return result + port }
    return result + token(host.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }) + port
  }

  /// The path with each segment of its percent-decoded form hashed; slashes kept as they are.
  private func path(_ text: Substring) -> String {
    let decoded = Self.percentDecoded(Array(text.utf8))
    let segments = decoded.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    let last = segments.lastIndex { !$0.isEmpty }
    var parts: [String] = []
    for (index, segment) in segments.enumerated() {
      guard !segment.isEmpty else {
        parts.append("")
        continue
      }
      var part = token(Array(segment))
      if index == last, let dot = segment.lastIndex(of: UInt8(ascii: ".")), dot > segment.startIndex {
        let suffix = segment[(dot + 1)...]
        if (1...8).contains(suffix.count), suffix.allSatisfy(Self.isAlphanumeric) {
          part += "." + String(decoding: suffix, as: UTF8.self)
        }
      }
      parts.append(part)
    }
    return parts.joined(separator: "/")
  }

  /// 60 bits of HMAC-SHA-256(salt, bytes) in base 32 (a–z, 2–7): 12 letters.
  func token(_ bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    #if canImport(CommonCrypto)
      CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), key, key.count, bytes, bytes.count, &digest)
    #else
      var length: UInt32 = 0
      let result = HMAC(EVP_sha256(), key, Int32(key.count), bytes, bytes.count, &digest, &length)
      precondition(result != nil && length == 32, "libcrypto's HMAC-SHA-256 failed")
    #endif
    var bits = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
    var letters = [UInt8](repeating: 0, count: 12)
    for index in 0..<12 {
      letters[index] = alphabet[Int(bits >> 59)]
      bits <<= 5
    }
    return String(decoding: letters, as: UTF8.self)
  }

  private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = LogFormatPattern.hexDigit(bytes[index + 1]),
        let low = LogFormatPattern.hexDigit(bytes[index + 2])
      {
        result.append(high << 4 | low)
        index += 3
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  private static func isSchemeCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }
}
