#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import CCrypto
#endif

/// MD5 as 32 lowercase hex digits: OpenSSL's libcrypto on Linux, CommonCrypto on Apple
/// platforms. One digest of a few bytes per call (a file name), well under a microsecond.
enum MD5Digest {
  static func hex(_ bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: 16)
    #if canImport(CommonCrypto)
      _ = CC_MD5(bytes, CC_LONG(bytes.count), &digest)
    #else
      var length: UInt32 = 0
      let status = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_md5(), nil)
      precondition(status == 1 && length == 16, "libcrypto's MD5 digest failed")
    #endif
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(32)
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
