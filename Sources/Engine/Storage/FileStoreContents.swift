import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a file-backend store directory already holds, and emptying it: only the store's own
/// files (32-hex object files and `.tmp-` leftovers, in the directory and its class folders)
/// are counted or deleted, never anything else a user put there.
public struct FileStoreContents: Equatable, Sendable {
  public var objects: Int = 0
  public var bytes: Int64 = 0
  /// Entries named like store files that are not regular files (links, FIFOs, devices): the
  /// store skips them.
  public var irregular: Int = 0

  /// Counts the store files under `directory` (zero when it does not exist).
  public init(directory: String) {
    Self.forEachStoreFile(directory) { path, isObject in
      var info = stat()
      guard lstat(path, &info) == 0 else { return }
      guard info.st_mode & S_IFMT == S_IFREG else {
        irregular += 1
        return
      }
      guard isObject else { return }
      objects += 1
      bytes += Int64(info.st_size)
    }
  }

  /// Deletes every store file under `directory`; returns what was there.
  @discardableResult
  public static func empty(_ directory: String) throws(FileError) -> FileStoreContents {
    let before = FileStoreContents(directory: directory)
    var failure: FileError?
    forEachStoreFile(directory) { path, _ in
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
      if unlink(path) != 0, failure == nil {
        failure = FileError(path: path, "cannot delete: \(systemErrorMessage(currentErrno))")
      }
    }
    if let failure { throw failure }
    return before
  }

  /// Calls `body` with each store file (path, whether it is an object rather than a leftover).
  private static func forEachStoreFile(_ directory: String, _ body: (String, Bool) -> Void) {
    for folder in [directory] + ContentClass.allCases.map({ directory + "/" + $0.name }) {
      for name in directoryEntries(folder) ?? [] {
        if name.hasPrefix(".tmp-") {
          body(folder + "/" + name, false)
        } else if name.count == 32, name.allSatisfy(\.isHexDigit) {
          body(folder + "/" + name, true)
        }
      }
    }
  }
}
