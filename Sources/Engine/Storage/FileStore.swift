import CacheCore
import Crypto

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real on-disk object store: one file per object, named by the MD5 hex of the object's key
/// (its decimal id), in one directory or one folder per content class.
///
/// Each file is a binary header (magic, key, body length and checksum, every metadata field,
/// header checksum) followed by the body. Writes go to a temporary file that is `fsync`ed and
/// renamed over the object's file, then the directory is `fsync`ed: a crash leaves the old
/// copy or the new one, never a partial object. Reads verify length and checksums; a damaged
/// file is deleted and reported as a miss. At launch ``recover()`` deletes leftover temporary
/// files, validates every object and returns the survivors with their metadata. Date updates
/// rewrite the header in place (a torn header fails its checksum and the object is dropped).
/// Every operation is timed with a monotonic clock (the only wall-clock use in the engine).
final class FileStore: DiskBackend {
  private(set) var counters = DiskCounters()
  let directory: String
  private let namespaces: Bool
  private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
  private var created: Set<String> = []

  static let magic: UInt32 = 0x4241_4c43  // "CLAB"
  static let formatVersion: UInt16 = 1
  static let headerLength = 256

  init(directory: String, namespaces: Bool) throws(FileError) {
    self.directory = directory
    self.namespaces = namespaces
    try makeDirectories(directory, purpose: "store directory")
    try Self.checkOwnDirectory(directory)
    if namespaces {
      for contentClass in ContentClass.allCases {
        try makeDirectories(directory + "/" + contentClass.name, purpose: "store directory")
        try Self.checkOwnDirectory(directory + "/" + contentClass.name)
      }
    }
  }

  /// Refuses a store folder that is a symbolic link or belongs to another user: the store
  /// never writes through a link or into someone else's folder.
  static func checkOwnDirectory(_ path: String) throws(FileError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw FileError(path: path, "cannot inspect the store directory: \(systemErrorMessage(currentErrno))")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw FileError(path: path, "the store directory is a symbolic link or not a directory; give a real directory")
    }
    guard info.st_uid == geteuid() else {
      throw FileError(
        path: path, "the store directory belongs to another user (uid \(info.st_uid)); refusing to use it")
    }
  }

  /// Opens an object file for reading without following links or blocking on a FIFO; nil
  /// unless it is a regular file.
  private static func openRegular(_ path: String) -> Int32? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      return nil
    }
    return fd
  }

  deinit {
    buffer.deallocate()
  }

  /// The MD5 hex digest of the key's decimal form: the object's file name.
  static func fileName(_ key: UInt64) -> String {
    let digest = Insecure.MD5.hash(data: Array(String(key).utf8))
    return digest.map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }

  private func folder(_ contentClass: ContentClass) -> String {
    namespaces ? directory + "/" + contentClass.name : directory
  }

  func path(_ key: UInt64, _ contentClass: ContentClass) -> String {
    folder(contentClass) + "/" + Self.fileName(key)
  }

  // MARK: Encoding

  private struct Writer {
    var bytes: [UInt8] = []
    mutating func put<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0
    mutating func get<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
      var value = T.zero
      withUnsafeMutableBytes(of: &value) { target in
        for index in 0..<target.count { target[index] = bytes[offset + index] }
      }
      offset += MemoryLayout<T>.size
      return T(littleEndian: value)
    }
  }

  private static func header(_ key: UInt64, _ metadata: EntryMetadata, checksum: UInt64) -> [UInt8] {
    var out = Writer()
    out.put(magic)
    out.put(formatVersion)
    out.put(UInt16(headerLength))
    out.put(key)
    out.put(metadata.size)
    out.put(checksum)
    out.put(metadata.cost)
    out.put(metadata.version)
    out.put(metadata.contentClass.rawValue)
    out.put(metadata.response.status)
    out.put(metadata.etag)
    out.put(UInt8(metadata.etagIsWeak ? 1 : 0))
    out.put(metadata.response.expires)
    out.put(metadata.response.date)
    out.put(metadata.response.lastModified)
    out.put(metadata.response.age)
    out.put(metadata.response.requestTime)
    out.put(metadata.response.responseTime)
    let cc = metadata.response.cacheControl
    var flags: UInt16 = 0
    for (bit, on) in [
      cc.isPresent, cc.noStore, cc.noCache, cc.mustRevalidate, cc.proxyRevalidate, cc.isPublic, cc.isPrivate,
      cc.immutable, cc.isInvalid,
    ].enumerated() where on {
      flags |= 1 << bit
    }
    out.put(flags)
    out.put(cc.maxAge)
    out.put(cc.sharedMaxAge)
    out.put(cc.staleWhileRevalidate)
    out.put(cc.staleIfError)
    out.put(metadata.createdAt)
    out.put(metadata.modifiedAt)
    out.put(metadata.accessedAt)
    out.put(metadata.expiresAt)
    out.put(metadata.ttl)
    out.put(metadata.accessCount)
    out.put(UInt8(metadata.bodyLost ? 1 : 0))
    precondition(out.bytes.count + 8 <= headerLength, "file header overflow")
    out.bytes += [UInt8](repeating: 0, count: headerLength - 8 - out.bytes.count)
    out.put(out.bytes.withUnsafeBytes { KeyHash.hash($0) })
    return out.bytes
  }

  /// Decodes a header; nil if it is not a valid CacheLab object header.
  private static func decode(_ bytes: [UInt8]) -> (key: UInt64, checksum: UInt64, metadata: EntryMetadata)? {
    guard bytes.count >= headerLength else { return nil }
    var trailer = Reader(bytes: bytes, offset: headerLength - 8)
    let stored = trailer.get(UInt64.self)
    guard bytes[0..<(headerLength - 8)].withUnsafeBytes({ KeyHash.hash($0) }) == stored else { return nil }
    var input = Reader(bytes: bytes)
    guard input.get(UInt32.self) == magic, input.get(UInt16.self) == formatVersion,
      Int(input.get(UInt16.self)) == headerLength
    else { return nil }
    let key = input.get(UInt64.self)
    var request = Request(key: key, size: input.get(Int64.self))
    let checksum = input.get(UInt64.self)
    var attributes = RequestAttributes()
    attributes.cost = input.get(Int64.self)
    attributes.version = input.get(Int64.self)
    attributes.contentClass = ContentClass(rawValue: input.get(UInt8.self)) ?? .data
    attributes.status = input.get(Int16.self)
    attributes.etag = input.get(UInt64.self)
    attributes.etagIsWeak = input.get(UInt8.self) != 0
    attributes.expires = input.get(Int64.self)
    attributes.date = input.get(Int64.self)
    attributes.lastModified = input.get(Int64.self)
    attributes.age = input.get(Int64.self)
    let requestTime = input.get(Int64.self)
    let responseTime = input.get(Int64.self)
    let flags = input.get(UInt16.self)
    var cc = CacheControl()
    cc.isPresent = flags & 1 != 0
    cc.noStore = flags & 2 != 0
    cc.noCache = flags & 4 != 0
    cc.mustRevalidate = flags & 8 != 0
    cc.proxyRevalidate = flags & 16 != 0
    cc.isPublic = flags & 32 != 0
    cc.isPrivate = flags & 64 != 0
    cc.immutable = flags & 128 != 0
    cc.isInvalid = flags & 256 != 0
    cc.maxAge = input.get(Int64.self)
    cc.sharedMaxAge = input.get(Int64.self)
    cc.staleWhileRevalidate = input.get(Int64.self)
    cc.staleIfError = input.get(Int64.self)
    attributes.cacheControl = cc
    request.time = requestTime
    var metadata = EntryMetadata(
      request: request, attributes: attributes, cost: attributes.cost(for: request), now: requestTime, latency: 0)
    metadata.response.responseTime = responseTime
    metadata.createdAt = input.get(Int64.self)
    metadata.modifiedAt = input.get(Int64.self)
    metadata.accessedAt = input.get(Int64.self)
    metadata.expiresAt = input.get(Int64.self)
    metadata.ttl = input.get(Int64.self)
    metadata.accessCount = input.get(Int32.self)
    metadata.bodyLost = input.get(UInt8.self) != 0
    return (key, checksum, metadata)
  }

  // MARK: Body

  /// Fills the reusable buffer with the deterministic body pattern of (key, version).
  private func fillPattern(_ key: UInt64, _ version: Int64) {
    var state = key ^ UInt64(bitPattern: version) &* 0x9e37_79b9_7f4a_7c15
    let words = buffer.count / 8
    for index in 0..<words {
      state = KeyHash.mix(state &+ UInt64(index))
      buffer.storeBytes(of: state, toByteOffset: index * 8, as: UInt64.self)
    }
  }

  /// Checksum of a body of `size` bytes made of the pattern repeated.
  private func patternChecksum(_ size: Int64) -> UInt64 {
    var hash = FNV64()
    var remaining = Int(size)
    while remaining > 0 {
      let chunk = min(remaining, buffer.count)
      hash.add(UnsafeRawBufferPointer(rebasing: buffer[0..<chunk]))
      remaining -= chunk
    }
    return hash.value
  }

  // MARK: Operations

  func write(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) -> Int64 {
    let started = MonotonicClock.microseconds()
    let target = path(key, metadata.contentClass)
    var random = SystemRandomNumberGenerator()
    let temporary =
      folder(metadata.contentClass) + "/.tmp-" + Self.fileName(key) + "-\(getpid())-"
      + String(random.next() >> 1, radix: 36)
    fillPattern(key, metadata.version)
    let header = Self.header(key, metadata, checksum: patternChecksum(metadata.size))
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(path: temporary, "cannot create: \(systemErrorMessage(currentErrno))") }
    do throws(FileError) {
      try Self.writeAll(fd, header, temporary)
      var remaining = Int(metadata.size)
      while remaining > 0 {
        let chunk = min(remaining, buffer.count)
        try Self.writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<chunk]), temporary)
        remaining -= chunk
      }
      guard fsync(fd) == 0 else {
        throw FileError(path: temporary, "fsync failed: \(systemErrorMessage(currentErrno))")
      }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    close(fd)
    guard rename(temporary, target) == 0 else {
      let code = currentErrno
      unlink(temporary)
      throw FileError(path: target, "cannot rename into place: \(systemErrorMessage(code))")
    }
    syncDirectory(folder(metadata.contentClass))
    counters.writes += 1
    counters.bytesWritten += Int64(header.count) + metadata.size
    counters.filesCreated += 1
    counters.fsyncs += 2
    return MonotonicClock.microseconds() - started
  }

  private func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  private static func writeAll(_ fd: Int32, _ array: [UInt8], _ path: String) throws(FileError) {
    var failure: FileError?
    array.withUnsafeBytes { bytes in
      do throws(FileError) { try writeAll(fd, bytes, path) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ path: String) throws(FileError) {
    if let code = POSIXIO.writeAll(fd, bytes) {
      throw FileError(path: path, "write failed: \(systemErrorMessage(code))")
    }
  }

  /// Reads and verifies the object file at `path`; nil if missing or damaged.
  private func load(_ path: String, expectedKey: UInt64?) -> (key: UInt64, metadata: EntryMetadata, bytes: Int64)? {
    guard let fd = Self.openRegular(path) else { return nil }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: Self.headerLength)
    let got = header.withUnsafeMutableBytes { POSIXIO.readSome(fd, $0.baseAddress, Self.headerLength) }
    guard got == Self.headerLength, let decoded = Self.decode(header),
      expectedKey == nil || decoded.key == expectedKey
    else { return nil }
    var hash = FNV64()
    var total: Int64 = 0
    while true {
      let count = POSIXIO.readSome(fd, buffer.baseAddress, buffer.count)
      guard count > 0 else { break }
      hash.add(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      total += Int64(count)
    }
    guard total == decoded.metadata.size, hash.value == decoded.checksum else { return nil }
    return (decoded.key, decoded.metadata, total + Int64(Self.headerLength))
  }

  func read(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) -> Int64? {
    let started = MonotonicClock.microseconds()
    let file = path(key, metadata.contentClass)
    guard let loaded = load(file, expectedKey: key) else {
      if unlink(file) == 0 { counters.corruptDiscarded += 1 }
      return nil
    }
    counters.reads += 1
    counters.bytesRead += loaded.bytes
    return MonotonicClock.microseconds() - started
  }

  func updateDates(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    let file = path(key, metadata.contentClass)
    guard let fd = Self.openRegular(file) else { return }
    var existing = [UInt8](repeating: 0, count: Self.headerLength)
    let got = existing.withUnsafeMutableBytes { POSIXIO.readSome(fd, $0.baseAddress, Self.headerLength) }
    close(fd)
    guard got == Self.headerLength, let decoded = Self.decode(existing) else { return }
    let header = Self.header(key, metadata, checksum: decoded.checksum)
    let writer = open(file, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard writer >= 0 else { return }
    defer { close(writer) }
    _ = header.withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
  }

  func delete(_ key: UInt64, _ metadata: EntryMetadata) throws(FileError) {
    if unlink(path(key, metadata.contentClass)) == 0 { counters.filesDeleted += 1 }
  }

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

/// Streaming FNV-1a 64 with a final mix, for body checksums.
struct FNV64 {
  private var state: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    for byte in bytes { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
  }

  var value: UInt64 { KeyHash.mix(state) }
}

/// Monotonic microseconds, for measuring real disk operations.
enum MonotonicClock {
  static func microseconds() -> Int64 { POSIXIO.monotonicNanoseconds() / 1000 }
}
