import ArgumentParser
import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files a command reads and writes, checked before any work: no output is an input or
/// another output (by file identity, following symbolic links, so spelling does not matter),
/// and every output can be written where it is. A few `stat`s per path.
struct PathCheck {
  private var inputs: [(option: String, path: String)] = []
  private var outputs: [(option: String, path: String)] = []
  private var problems: [String] = []

  /// Adds a file the command reads (standard input `-` and `gen:` specs are not files).
  mutating func read(_ option: String, _ path: String?) {
    guard let path, path != "-", !path.hasPrefix("gen:") else { return }
    inputs.append((option, path))
  }

  /// Adds a file the command writes (`-`, standard output, is not a file).
  mutating func write(_ option: String, _ path: String?) {
    guard let path, path != "-" else { return }
    outputs.append((option, path))
  }

  /// Adds a folder the command writes `files` into; the folder must be one or absent.
  mutating func writeFolder(_ option: String, _ folder: String?, files: [String]) {
    guard let folder else { return }
    var info = stat()
    if stat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      problems.append("\(option) \(folder) is a file, not a folder")
    }
    for file in files { outputs.append(("\(option) (\(file))", folder + "/" + file)) }
  }

  /// Throws a usage error naming both options when an output would replace an input or
  /// another output, or naming the option whose output cannot be written.
  func check() throws {
    if let problem = problems.first { throw ValidationError(problem) }
    var seen: [(option: String, path: String, identity: FileIdentity)] = []
    for output in outputs {
      guard let identity = FileIdentity(path: output.path) else {
        try Self.requireWritable(output.option, output.path)
        continue
      }
      for input in inputs where FileIdentity(path: input.path) == identity {
        throw ValidationError(
          "\(output.option) \(output.path) is the \(input.option) \(input.path): writing it would destroy the input; choose another output"
        )
      }
      if let earlier = seen.first(where: { $0.identity == identity }) {
        throw ValidationError(
          "\(output.option) \(output.path) and \(earlier.option) \(earlier.path) are one file: one would replace the other"
        )
      }
      seen.append((output.option, output.path, identity))
      try Self.requireWritable(output.option, output.path)
    }
  }

  /// Refuses an output that is a folder, or whose nearest existing folder is a file or not
  /// writable — what would otherwise fail only after the replay. (A link or device is left to
  /// the atomic writer, which refuses it before the replay.)
  private static func requireWritable(_ option: String, _ path: String) throws {
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw ValidationError("\(option) \(path) is a folder; CacheLab writes only regular files")
    }
    var folder = path
    repeat {
      guard let slash = folder.lastIndex(of: "/") else {
        folder = "."
        break
      }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    } while stat(folder, &info) != 0 && folder != "/"
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw ValidationError("\(option) \(path): \(folder) is a file, not a folder")
    }
    guard access(folder, W_OK) == 0 else {
      throw ValidationError("\(option) \(path): the folder \(folder) is not writable")
    }
  }
}
