import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Detections already made in this process, so a command that resolves its options twice
/// (validation, then the run) reads and sniffs a trace once. Keyed by the file's identity
/// (device, inode, size, modification time), so a file rewritten in place is sniffed again.
enum SniffMemo {
  struct FileIdentity: Hashable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
  }

  private static let detections = Mutex<[FileIdentity: TraceSniffer.Detection]>([:])

  /// The identity of the regular file at `path`, nil when it is not one (a pipe is read once).
  static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    #if os(Linux)
      let modified = info.st_mtim
    #else
      let modified = info.st_mtimespec
    #endif
    return FileIdentity(
      path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
  }

  /// The detection made earlier for this file, if any. O(1).
  static func lookup(_ identity: FileIdentity) -> TraceSniffer.Detection? {
    detections.withLock { $0[identity] }
  }

  /// Remembers `detection` for this file. O(1).
  static func remember(_ detection: TraceSniffer.Detection, for identity: FileIdentity) {
    detections.withLock { $0[identity] = detection }
  }
}
