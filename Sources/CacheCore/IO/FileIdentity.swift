#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a path names, by identity rather than spelling: the device and inode it resolves
/// to (following symbolic links), or — for a file not yet created — the device and inode of
/// its deepest existing folder and the rest of the path below it (`.` and `..` resolved).
/// Two paths with equal identities write the same file. One `stat` per missing level.
public enum FileIdentity: Hashable, Sendable {
  case existing(device: UInt64, inode: UInt64)
  case planned(folderDevice: UInt64, folderInode: UInt64, name: String)

  /// The identity of `path`; nil when no folder on its way can be found.
  public init?(path: String) {
    var info = stat()
    if stat(path, &info) == 0 {
      self = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      return
    }
    var folders = path.split(separator: "/").map(String.init)
    var below: [String] = []
    while let last = folders.popLast() {
      below.insert(last, at: 0)
      let folder = (path.hasPrefix("/") ? "/" : "") + folders.joined(separator: "/")
      if stat(folder.isEmpty ? "." : folder, &info) == 0 {
        var name: [String] = []
        for component in below where component != "." {
          if component == ".." { _ = name.popLast() } else { name.append(component) }
        }
        let resolved = name.joined(separator: "/")
        let base = folder.isEmpty ? "." : folder
        if stat(base + "/" + resolved, &info) == 0 {
          self = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
          return
        }
        guard stat(base, &info) == 0 else { return nil }
        self = .planned(
          folderDevice: UInt64(info.st_dev), folderInode: UInt64(info.st_ino), name: resolved)
        return
      }
    }
    return nil
  }

  /// Whether `a` and `b` name the same file (false when either cannot be resolved).
  public static func same(_ a: String, _ b: String) -> Bool {
    guard let first = FileIdentity(path: a), let second = FileIdentity(path: b) else { return false }
    return first == second
  }
}
