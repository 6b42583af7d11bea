#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole content of the file at `path`, read in 64 KiB chunks (for small files: reports,
/// records, a child process's output). O(size) time and memory.
///
/// - Throws: ``FileError`` naming `path` when it cannot be opened or read.
public func readWholeFile(_ path: String) throws(FileError) -> [UInt8] {
  guard let file = fopen(path, "rb") else {
    throw FileError(path: path, "cannot open: \(systemErrorMessage(currentErrno))")
  }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count > 0 { bytes += chunk[0..<count] }
    if count < chunk.count {
      if ferror(file) != 0 { throw FileError(path: path, "cannot read: \(systemErrorMessage(currentErrno))") }
      return bytes
    }
  }
}
