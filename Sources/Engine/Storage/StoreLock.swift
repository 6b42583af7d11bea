import CacheCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory lock (`flock`) on a file store's folder, so two processes never share one store:
/// the second is refused with a message naming the folder instead of failing on the first's
/// files or reading its objects. Within one process any number of holders share the lock; it
/// is released when the last holder goes (and by the system when the process ends, also after
/// a crash). One `open` and `flock` for the first holder.
public final class StoreLock: Sendable {
  private static let held = Mutex<[FileIdentity: (descriptor: Int32, holders: Int)]>([:])
  private let identity: FileIdentity

  /// Locks `directory` (which must exist) for this process while the lock lives.
  ///
  /// - Throws: `FileError` when another process holds it or it cannot be opened.
  public init(_ directory: String) throws(FileError) {
    guard let identity = FileIdentity(path: directory) else {
      throw FileError(path: directory, "cannot find the store directory")
    }
    self.identity = identity
    let failure: FileError? = Self.held.withLock { held in
      if let entry = held[identity] {
        held[identity] = (entry.descriptor, entry.holders + 1)
        return nil
      }
      let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard descriptor >= 0 else {
        return FileError(path: directory, "cannot open the store directory: \(systemErrorMessage(currentErrno))")
      }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        let code = currentErrno
        close(descriptor)
        return FileError(
          path: directory,
          code == EAGAIN
            ? "another cachelab process is using this store; wait for it to finish or give another --disk-backend folder"
            : "cannot lock the store directory: \(systemErrorMessage(code))")
      }
      held[identity] = (descriptor, 1)
      return nil
    }
    if let failure { throw failure }
  }

  deinit {
    Self.held.withLock { held in
      guard let entry = held[identity] else { return }
      if entry.holders > 1 {
        held[identity] = (entry.descriptor, entry.holders - 1)
      } else {
        held[identity] = nil
        close(entry.descriptor)  // releases the lock
      }
    }
  }
}
