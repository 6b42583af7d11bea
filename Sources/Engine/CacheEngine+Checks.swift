import CacheCore

/// Self-checks: the disk store against the tier, and every tier's invariants.
extension CacheEngine {
  /// Reads every object of the disk tier back through the backend (full read, length and
  /// checksum checks). Returns how many objects were read and how many could not be.
  public func verifyDisk() throws(EngineError) -> (objects: Int, unreadable: Int) {
    guard hasDisk, let backend else { return (0, 0) }
    var unreadable = 0
    let all = disk.all()
    do throws(FileError) {
      for (key, metadata) in all
      where try backend.read(key, size: metadata.size, contentClass: metadata.contentClass) == nil { unreadable += 1 }
    } catch {
      throw .file(error)
    }
    return (all.count, unreadable)
  }

  /// The file name the file backend gives `key`: the MD5 hex digest of its decimal id.
  public static func diskFileName(for key: UInt64) -> String { FileStore.fileName(key) }

  /// Checks every tier's policy and metadata.
  public func checkInvariants() throws(InvariantViolation) {
    try memory.checkInvariants()
    try disk.checkInvariants()
  }
}

/// Why an engine could not be built or could not go on.
public enum EngineError: Error, CustomStringConvertible {
  case configuration(ConfigurationError)
  case file(FileError)

  public var description: String {
    switch self {
    case .configuration(let error): return error.description
    case .file(let error): return error.description
    }
  }
}
