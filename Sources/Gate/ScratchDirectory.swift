import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private folder under `$TMPDIR` (or `/tmp`) for files the gate hands to other processes,
/// removed with everything in it when done (it holds only plain files).
public enum ScratchDirectory {
  /// Creates `cachelab-<purpose>-XXXXXX` (mode 0700); nil if that fails.
  public static func make(purpose: String) -> String? {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base.isEmpty ? "/tmp" : base)/cachelab-\(purpose)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
  }

  /// Removes `path` and the files directly in it.
  public static func remove(_ path: String) {
    for name in directoryEntries(path) ?? [] { unlink(path + "/" + name) }
    rmdir(path)
  }
}
