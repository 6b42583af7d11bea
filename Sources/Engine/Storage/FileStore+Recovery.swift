import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Recovery at launch: leftover temporary files go, every object is validated.
extension FileStore {
  func recover() throws(FileError) -> [(key: UInt64, metadata: EntryMetadata)] {
    var found: [(key: UInt64, metadata: EntryMetadata)] = []
    let folders = namespaces ? ContentClass.allCases.map(folder) : [directory]
    for folder in folders {
      guard let names = directoryEntries(folder) else { continue }
      for name in names.sorted() {
        let file = folder + "/" + name
        var info = stat()
        // Links, FIFOs and devices are not the store's: skipped, never opened or deleted.
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
        if name.hasPrefix(".tmp-") {
          if unlink(file) == 0 { counters.corruptDiscarded += 1 }
          continue
        }
        guard name.count == 32, name.allSatisfy(\.isHexDigit) else { continue }
        if let loaded = load(file, expectedKey: nil), Self.fileName(loaded.key) == name {
          found.append((loaded.key, loaded.metadata))
        } else if unlink(file) == 0 {
          counters.corruptDiscarded += 1
        }
      }
    }
    return found
  }
}
