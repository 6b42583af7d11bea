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
