#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text of the C library's error message for `code` (e.g. "No such file or directory").
public func systemErrorMessage(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return String(cString: text)
}

/// The current `errno` value.
public var currentErrno: Int32 { errno }
