import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes plain text, one key per line (libCacheSim's txt, the LIRS traces' layout).
public final class TextKeyWriter: TraceWriter {
  private let file: AtomicFileWriter

  public init(path: String) throws(FileError) {
    file = try AtomicFileWriter(path: path)
  }

  public func write(_ request: Request) throws(FileError) {
    try file.writeDecimal(request.key)
    try file.writeByte(0x0A)
  }

  public func commit() throws(FileError) { try file.commit() }
}

/// Writes libCacheSim lcs version 1: the 8192-byte header (both magic numbers, version 1,
/// statistics version 1 and the request count), then oracleGeneral records with next-access
/// indices — written to a temporary oracleGeneral file first, for the backward pass.
public final class LCSWriter: TraceWriter {
  private let path: String
  private let records: OracleGeneralWriter
  private let recordsPath: String
  private var count: Int64 = 0

  public init(path: String) throws(FileError) {
    self.path = path
    recordsPath = path + ".records-tmp"
    records = try OracleGeneralWriter(path: recordsPath, computeNextAccess: true)
  }

  public func write(_ request: Request) throws(FileError) {
    try records.write(request)
    count += 1
  }

  public func commit() throws(FileError) {
    try records.commit()
    defer { unlink(recordsPath) }
    let output = try AtomicFileWriter(path: path)
    var header = [UInt8](repeating: 0, count: LCSLayout.headerSize)
    func put(_ value: UInt64, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<offset + 8, with: $0) }
    }
    put(LCSLayout.magic, at: 0)
    put(1, at: 8)
    put(1, at: 16)
    put(UInt64(count), at: 24)
    put(LCSLayout.magic, at: LCSLayout.headerSize - 8)
    var failure: FileError?
    header.withUnsafeBytes { bytes in
      do throws(FileError) { try output.write(bytes) } catch { failure = error }
    }
    if let failure { throw failure }
    try copy(file: recordsPath, into: output)
    try output.commit()
  }
}

/// Appends the bytes of the file at `path` to `output`, 1 MiB at a time.
func copy(file path: String, into output: AtomicFileWriter) throws(FileError) {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { throw FileError(path: path, "cannot open: \(systemErrorMessage(currentErrno))") }
  defer { close(descriptor) }
  let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
  defer { chunk.deallocate() }
  while true {
    let count = POSIXIO.readSome(descriptor, chunk, 1 << 20)
    if count == 0 { return }
    if count < 0 { throw FileError(path: path, "read failed: \(systemErrorMessage(Int32(-count)))") }
    try output.write(UnsafeRawBufferPointer(start: chunk, count: count))
  }
}
