#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a path names, by identity rather than spelling: the device and inode it resolves
/// to (following symbolic links), or — for a file not yet created — its folder's device and
/// inode and its name. Two paths with equal identities write the same file. One or two `stat`s.
public enum FileIdentity: Hashable, Sendable {
  case existing(device: UInt64, inode: UInt64)
  case planned(folderDevice: UInt64, folderInode: UInt64, name: String)

  /// The identity of `path`; nil when neither it nor its folder can be found.
  public init?(path: String) {
    var info = stat()
    if stat(path, &info) == 0 {
      self = .existing(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      return
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard stat(folder, &info) == 0 else { return nil }
    self = .planned(folderDevice: UInt64(info.st_dev), folderInode: UInt64(info.st_ino), name: name)
  }

  /// Whether `a` and `b` name the same file (false when either cannot be resolved).
  public static func same(_ a: String, _ b: String) -> Bool {
    guard let first = FileIdentity(path: a), let second = FileIdentity(path: b) else { return false }
    return first == second
  }
}
