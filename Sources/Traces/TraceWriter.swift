import CacheCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes requests to a trace file atomically: nothing appears at the path until
/// ``commit()`` succeeds.
public protocol TraceWriter: AnyObject {
  /// Appends one request.
  func write(_ request: Request) throws(FileError)
  /// Appends one row with its attributes (TTL, lifecycle event); writers of formats without
  /// such columns write the request alone. Non-`get` rows reach only writers that keep them
  /// (``keepsEveryRow``).
  func write(_ request: Request, attributes: RequestAttributes?) throws(FileError)
  /// Whether the format keeps `put`, `delete`, event and origin rows (otherwise callers pass
  /// only `get`s).
  var keepsEveryRow: Bool { get }
  /// Finishes the file and moves it into place.
  func commit() throws(FileError)
}

extension TraceWriter {
  public func write(_ request: Request, attributes: RequestAttributes?) throws(FileError) { try write(request) }
  public var keepsEveryRow: Bool { false }
}

extension AtomicFileWriter {
  /// Writes `micros` as decimal seconds, with the microseconds as a fraction when not zero
  /// (trailing zeros dropped).
  public func writeSeconds(_ micros: Int64) throws(FileError) {
    try writeDecimal(micros / microsecondsPerSecond)
    var fraction = micros % microsecondsPerSecond
    guard fraction != 0 else { return }
    try writeByte(0x2E)
    var divisor: Int64 = 100_000
    while fraction > 0 {
      try writeByte(UInt8(fraction / divisor) + 0x30)
      fraction %= divisor
      divisor /= 10
    }
  }
}

/// Writes libCacheSim oracleGeneral records.
///
/// With `computeNextAccess`, ``commit()`` makes one backward pass over the written file
/// to fill every record's next-access index (memory: one hash entry per distinct object),
/// so the output is a correct oracle trace whatever order requests were written in.
public final class OracleGeneralWriter: TraceWriter {
  private let file: AtomicFileWriter
  private let computeNextAccess: Bool
  private var records: Int64 = 0

  public init(path: String, computeNextAccess: Bool) throws(FileError) {
    file = try AtomicFileWriter(path: path)
    self.computeNextAccess = computeNextAccess
  }

  public func write(_ request: Request) throws(FileError) {
    let seconds = request.time / microsecondsPerSecond
    guard seconds >= 0, seconds <= Int64(UInt32.max) else {
      throw FileError(path: file.path, "time \(seconds) s does not fit oracleGeneral's u32 seconds")
    }
    guard request.size >= 0, request.size <= Int64(UInt32.max) else {
      throw FileError(path: file.path, "size \(request.size) does not fit oracleGeneral's u32 size")
    }
    let next = request.nextAccess == Request.never || request.nextAccess == Request.unknown ? -1 : request.nextAccess
    try file.writeValue(UInt32(seconds).littleEndian)
    try file.writeValue(request.key.littleEndian)
    try file.writeValue(UInt32(request.size).littleEndian)
    try file.writeValue(Int64(next).littleEndian)
    records += 1
  }

  public func commit() throws(FileError) {
    try file.flush()
    if computeNextAccess { try annotateNextAccess() }
    try file.commit()
  }

  /// Fills `next_access_vtime` in place, walking the file from its end.
  private func annotateNextAccess() throws(FileError) {
    let recordSize = 24
    let chunkRecords = 1 << 16
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkRecords * recordSize, alignment: 8)
    defer { chunk.deallocate() }
    var lastSeen = SlotArena<Int64>(initialCapacity: 1 << 16)
    var end = records
    while end > 0 {
      let begin = max(0, end - Int64(chunkRecords))
      let count = Int(end - begin)
      let bytes = UnsafeMutableRawBufferPointer(rebasing: chunk[0..<(count * recordSize)])
      try positioned(read: true, bytes, offset: begin * Int64(recordSize))
      for local in stride(from: count - 1, through: 0, by: -1) {
        let index = begin + Int64(local) + 1  // 1-based
        let base = local * recordSize
        let key = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 4, as: UInt64.self))
        let slot = lastSeen.find(key)
        let next: Int64
        if slot >= 0 {
          next = lastSeen[slot].extra
          lastSeen[slot].extra = index
        } else {
          next = -1
          _ = lastSeen.insert(key: key, size: 0, extra: index)
        }
        bytes.storeBytes(of: next.littleEndian, toByteOffset: base + 16, as: Int64.self)
      }
      try positioned(read: false, bytes, offset: begin * Int64(recordSize))
      end = begin
    }
  }

  private func positioned(read isRead: Bool, _ bytes: UnsafeMutableRawBufferPointer, offset: Int64) throws(FileError) {
    var done = 0
    while done < bytes.count {
      let base = bytes.baseAddress! + done
      let count =
        isRead
        ? pread(file.descriptor, base, bytes.count - done, off_t(offset) + off_t(done))
        : pwrite(file.descriptor, base, bytes.count - done, off_t(offset) + off_t(done))
      if count < 0 {
        if currentErrno == EINTR { continue }
        throw FileError(path: file.path, "\(isRead ? "read" : "write") failed: \(systemErrorMessage(currentErrno))")
      }
      guard count > 0 else { throw FileError(path: file.path, "unexpected end of the temporary file") }
      done += count
    }
  }
}

/// Writes CacheLab's CSV trace format: a `time,key,size` header, then one request per row
/// (time in seconds, with microseconds as a fraction when present).
public final class CSVTraceWriter: TraceWriter {
  private let file: AtomicFileWriter

  public init(path: String) throws(FileError) {
    file = try AtomicFileWriter(path: path)
    try file.write("time,key,size\n")
  }

  public func write(_ request: Request) throws(FileError) {
    try file.writeSeconds(request.time)
    try file.writeByte(0x2C)
    try file.writeDecimal(request.key)
    try file.writeByte(0x2C)
    try file.writeDecimal(request.size)
    try file.writeByte(0x0A)
  }

  public func commit() throws(FileError) {
    try file.commit()
  }
}
