import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Messages for the person at the terminal (progress, notices): written unbuffered to
/// standard error, never to the output a command produces.
enum StandardError {
  /// Writes `text` as is (add the newline yourself).
  static func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { buffer in POSIXIO.writeAll(STDERR_FILENO, buffer) }
  }
}
