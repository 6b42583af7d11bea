import CacheCore

/// How one fixed-size binary record format decodes.
protocol RecordLayout {
  /// Bytes per record.
  static var recordSize: Int { get }
  /// Bytes per record of this instance (``recordSize`` unless a header chose another size).
  var recordSize: Int { get }
  /// What this instance's records carry (``traits`` unless the layout varies).
  var traits: TraceTraits { get }
  /// What the records carry.
  static var traits: TraceTraits { get }
  /// Decodes the record at `bytes` (record number `index`, 1-based) into `request`;
  /// returns a message if the record is malformed.
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String?
  /// Whether this layout's records carry a time-to-live (then ``ttlSeconds(_:)`` reads it
  /// and the reader fills the batch's attributes; otherwise it leaves them alone).
  var hasTTL: Bool { get }
  /// The record's time-to-live in seconds (0 or less: none).
  func ttlSeconds(_ bytes: UnsafeRawPointer) -> Int64
  /// Decodes `count` consecutive records starting at `bytes`, the first being record
  /// `firstIndex`, into `requests`. Returns how many decoded and the first problem, if any.
  /// A requirement so that each layout gets a loop specialised for its `decode`.
  mutating func decode(
    _ bytes: UnsafeRawPointer, count: Int, firstIndex: Int64, into requests: UnsafeMutablePointer<Request>
  ) -> (decoded: Int, problem: String?)
}

extension RecordLayout {
  var recordSize: Int { Self.recordSize }
  var traits: TraceTraits { Self.traits }

  /// Records carry no time-to-live.
  var hasTTL: Bool { false }
  func ttlSeconds(_ bytes: UnsafeRawPointer) -> Int64 { 0 }

  @inline(__always)
  mutating func decode(
    _ bytes: UnsafeRawPointer, count: Int, firstIndex: Int64, into requests: UnsafeMutablePointer<Request>
  ) -> (decoded: Int, problem: String?) {
    var cursor = bytes
    for offset in 0..<count {
      if let problem = decode(cursor, index: firstIndex + Int64(offset), into: &requests[offset]) {
        return (offset, problem)
      }
      cursor += recordSize
    }
    return (count, nil)
  }
}

/// A streaming reader for formats made of fixed-size binary records, optionally after a
/// fixed-size header that chooses the layout (libCacheSim's lcs).
///
/// A regular file whose size is not a whole number of records is rejected before any
/// request is read, naming the truncated record.
final class FixedRecordReader<Layout: RecordLayout>: TraceReader {
  private let file: ChunkedFile
  private var layout: Layout
  private let headerSize: Int
  /// Records decoded so far (delivered or, when sampling, dropped).
  private(set) var requestsRead: Int64 = 0
  private var budget = ByteBudget()
  /// Set by ``sample(threshold:recordLimit:)``: keep only keys below this hash threshold.
  private var sampleThreshold: UInt64?
  private var recordLimit: Int64 = .max

  convenience init(path: String, layout: Layout) throws(TraceError) {
    try self.init(path: path, headerSize: 0) { _ throws(TraceError) in layout }
  }

  /// Reads `headerSize` bytes, has `header` decode them into the layout, then the records.
  init(
    path: String, headerSize: Int, header: (UnsafeRawBufferPointer) throws(TraceError) -> Layout
  ) throws(TraceError) {
    file = try ChunkedFile(path: path)
    self.headerSize = headerSize
    while file.available < headerSize, try file.refill() {}
    guard file.available >= headerSize else {
      throw TraceError(
        .truncatedRecord, path: path, "the file ends inside its \(headerSize)-byte header (\(file.available) bytes)")
    }
    layout = try header(UnsafeRawBufferPointer(start: file.cursor, count: headerSize))
    file.start += headerSize
    let recordSize = Int64(layout.recordSize)
    if let size = file.regularFileSize.map({ $0 - Int64(headerSize) }), size % recordSize != 0 {
      throw TraceError(
        .truncatedRecord, path: path, record: size / recordSize + 1,
        "truncated record: file ends \(size % recordSize) bytes into a \(recordSize)-byte record")
    }
  }

  var path: String { file.path }
  var traits: TraceTraits {
    var traits = layout.traits
    traits.hasTTL = layout.hasTTL
    return traits
  }
  var knownRequestCount: Int64? {
    file.regularFileSize.map { ($0 - Int64(headerSize)) / Int64(layout.recordSize) }
  }

  /// Copies the time-to-live of `count` decoded records (still at the file cursor) into the
  /// batch's attributes, from index `first` on.
  private func recordTTLs(_ batch: RequestBatch, from first: Int, count: Int) {
    let attributes = batch.attributesForWriting()
    for offset in 0..<count {
      let seconds = layout.ttlSeconds(file.cursor + offset * layout.recordSize)
      attributes[first + offset].ttl = seconds > 0 ? min(seconds, Duration.maximum / 1_000_000) * 1_000_000 : -1
    }
  }

  /// Reads more of the file; a decoder's error names the record being read.
  private func refill() throws(TraceError) -> Bool {
    do { return try file.refill() } catch { throw error.located(at: requestsRead + 1) }
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    let size = layout.recordSize
    batch.clearAttributes()
    try batch.refill { (requests: UnsafeMutableBufferPointer<Request>) throws(TraceError) -> Int in
      var filled = 0
      while filled < requests.count {
        if file.available < size {
          if try refill() { continue }
          if file.available > 0 {
            throw TraceError(
              .truncatedRecord, path: path, record: requestsRead + 1,
              "truncated record: \(file.available) of \(size) bytes")
          }
          break
        }
        if requestsRead >= recordLimit { break }
        let count = Int(min(Int64(min(file.available / size, requests.count - filled)), recordLimit - requestsRead))
        let (decoded, problem) = layout.decode(
          file.cursor, count: count, firstIndex: requestsRead + 1, into: requests.baseAddress! + filled)
        // A local copy: a class property in the loop would be checked for exclusive access
        // on every request.
        var budget = self.budget
        defer { self.budget = budget }
        for index in filled..<(filled + decoded) {
          if let problem = budget.add(requests[index].size) {
            throw TraceError(.malformedRecord, path: path, record: requestsRead + Int64(index - filled) + 1, problem)
          }
        }
        if layout.hasTTL { recordTTLs(batch, from: filled, count: decoded) }
        requestsRead += Int64(decoded)
        file.start += decoded * size
        if let threshold = sampleThreshold {
          // Sampled: keep the decoded records in the sample, in place (the region stays in cache).
          var kept = filled
          for index in filled..<(filled + decoded) where TraceSlice.samples(requests[index].key, threshold: threshold) {
            requests[kept] = requests[index]
            kept += 1
          }
          filled = kept
        } else {
          filled += decoded
        }
        if let problem {
          throw TraceError(.malformedRecord, path: path, record: requestsRead + 1, problem)
        }
      }
      return filled
    }
    return batch.count > 0
  }
}

extension FixedRecordReader: SamplingDecoder {
  func sample(threshold: UInt64, recordLimit: Int64?) -> Bool {
    // Records with a TTL carry attributes the in-place compaction would have to move too.
    guard !layout.hasTTL, requestsRead == 0 else { return false }
    sampleThreshold = threshold
    self.recordLimit = recordLimit ?? .max
    return true
  }
}

extension UnsafeRawPointer {
  /// The little-endian integer of type `T` at `offset` bytes (unaligned).
  @inline(__always)
  func little<T: FixedWidthInteger>(_ offset: Int, as _: T.Type = T.self) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
