import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real on-disk object store: one file per object, named by the MD5 hex of the object's key
/// (its decimal id), in one directory or one folder per content class.
///
/// Each file is a binary header (magic, key, body length and checksum, every metadata field,
/// header checksum) followed by the body. Writes go to a temporary file that is `fsync`ed and
/// renamed over the object's file, then the directory is `fsync`ed: a crash leaves the old
/// copy or the new one, never a partial object. Reads verify length and checksums; a damaged
/// file is deleted and reported as a miss. At launch ``recover()`` deletes leftover temporary
/// files, validates every object and returns the survivors with their metadata. Date updates
/// rewrite the header in place (a torn header fails its checksum and the object is dropped).
/// Every operation is timed with a monotonic clock (the only wall-clock use in the engine).
final class FileStore: DiskBackend {
  @exclusivity(unchecked) var counters = DiskCounters()
  let directory: String
  let namespaces: Bool
  @exclusivity(unchecked) var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
  @exclusivity(unchecked) var created: Set<String> = []
  /// Keeps other processes out of the store while this one uses it.
  let lock: StoreLock

  static let magic: UInt32 = 0x4241_4c43  // "CLAB"
  static let formatVersion: UInt16 = 2
  static let headerLength = 256

  init(directory: String, namespaces: Bool) throws(FileError) {
    self.directory = directory
    self.namespaces = namespaces
    try makeDirectories(directory, purpose: "store directory")
    try Self.checkOwnDirectory(directory)
    lock = try StoreLock(directory)
    if namespaces {
      for contentClass in ContentClass.allCases {
        try makeDirectories(directory + "/" + contentClass.name, purpose: "store directory")
        try Self.checkOwnDirectory(directory + "/" + contentClass.name)
      }
    }
  }

  /// Refuses a store folder that is a symbolic link or belongs to another user: the store
  /// never writes through a link or into someone else's folder.
  static func checkOwnDirectory(_ path: String) throws(FileError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw FileError(path: path, "cannot inspect the store directory: \(systemErrorMessage(currentErrno))")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw FileError(path: path, "the store directory is a symbolic link or not a directory; give a real directory")
    }
    guard info.st_uid == geteuid() else {
      throw FileError(
        path: path, "the store directory belongs to another user (uid \(info.st_uid)); refusing to use it")
    }
  }

  /// Opens an object file for reading without following links or blocking on a FIFO; nil
  /// unless it is a regular file.
  static func openRegular(_ path: String) -> Int32? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      return nil
    }
    return fd
  }

  deinit {
    buffer.deallocate()
  }

  /// The MD5 hex digest of the key's decimal form: the object's file name.
  static func fileName(_ key: UInt64) -> String {
    MD5Digest.hex(Array(String(key).utf8))
  }

  func folder(_ contentClass: ContentClass) -> String {
    namespaces ? directory + "/" + contentClass.name : directory
  }

  func path(_ key: UInt64, _ contentClass: ContentClass) -> String {
    folder(contentClass) + "/" + Self.fileName(key)
  }
}
