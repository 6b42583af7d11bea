import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files a run creates and must not leave behind (a generated `gen:` trace, an output's
/// temporary file): when the process is interrupted (SIGINT, SIGTERM) they are removed, then
/// the signal ends the process as it would have (exit status 130 or 143). Registering costs
/// one `strdup` under a lock; the handler only calls `unlink`, which is async-signal-safe.
public enum TemporaryFiles {
  private static let capacity = 1024
  /// C strings of the registered paths; the handler reads them without the lock.
  nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
    return slots
  }()
  private static let lock = Mutex<Bool>(false)  // whether the handlers are installed

  /// Registers `path` for removal on interruption; returns the token for ``unregister(_:)``
  /// (nil when every slot is taken: then the file is merely not cleaned up on a signal).
  public static func register(_ path: String) -> Int? {
    lock.withLock { installed in
      if !installed {
        installed = true
        for sig in [SIGINT, SIGTERM] {
          // A signal the process was started to ignore (`nohup`, a background job) stays ignored.
          if let previous = signal(sig, TemporaryFiles.handle), unsafeBitCast(previous, to: Int.self) == 1 {
            signal(sig, SIG_IGN)
          }
        }
      }
      guard let free = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
      slots[free] = strdup(path)
      return free
    }
  }

  /// Forgets the path behind `token` (after the file was renamed into place or removed). The
  /// string is not freed: the handler may be reading it on another thread (a few bytes a file).
  public static func unregister(_ token: Int?) {
    guard let token else { return }
    lock.withLock { _ in slots[token] = nil }
  }

  /// The signal handler: removes every registered file, then lets the signal end the process.
  private static let handle: @convention(c) (Int32) -> Void = { sig in
    for index in 0..<TemporaryFiles.capacity {
      if let path = TemporaryFiles.slots[index] { unlink(path) }
    }
    signal(sig, SIG_DFL)
    raise(sig)
  }

  /// Removes files named `prefix<pid>-…` in `folder` whose process no longer runs: what a
  /// killed earlier run (SIGKILL cannot be caught) left behind.
  public static func removeLeftovers(in folder: String, prefix: String) {
    for name in directoryEntries(folder) ?? [] {
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid() else {
        continue
      }
      if kill(pid, 0) != 0 && currentErrno == ESRCH { unlink(folder + "/" + name) }
    }
  }
}
