#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Creates `path` and any missing parents (like `mkdir -p`); `purpose` names the directory in
/// the error (e.g. "store directory").
///
/// - Throws: ``FileError`` naming the first component that could not be created.
public func makeDirectories(_ path: String, purpose: String) throws(FileError) {
  var partial = path.hasPrefix("/") ? "" : "."
  for component in path.split(separator: "/") {
    partial += "/" + component
    if mkdir(partial, 0o755) != 0 && currentErrno != EEXIST {
      throw FileError(path: partial, "cannot create the \(purpose): \(systemErrorMessage(currentErrno))")
    }
  }
}

/// The names in directory `path` (without `.` and `..`), unsorted; nil if it cannot be opened
/// (`currentErrno` says why).
public func directoryEntries(_ path: String) -> [String]? {
  guard let handle = opendir(path) else { return nil }
  defer { closedir(handle) }
  var names: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}
