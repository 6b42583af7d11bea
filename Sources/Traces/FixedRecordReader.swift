import CacheCore

/// How one fixed-size binary record format decodes.
protocol RecordLayout {
  /// Bytes per record.
  static var recordSize: Int { get }
  /// What the records carry.
  static var traits: TraceTraits { get }
  /// Decodes the record at `bytes` (record number `index`, 1-based) into `request`;
  /// returns a message if the record is malformed.
  mutating func decode(_ bytes: UnsafeRawPointer, index: Int64, into request: inout Request) -> String?
  /// Decodes `count` consecutive records starting at `bytes`, the first being record
  /// `firstIndex`, into `requests`. Returns how many decoded and the first problem, if any.
  /// A requirement so that each layout gets a loop specialised for its `decode`.
  mutating func decode(
    _ bytes: UnsafeRawPointer, count: Int, firstIndex: Int64, into requests: UnsafeMutablePointer<Request>
  ) -> (decoded: Int, problem: String?)
}

extension RecordLayout {
  @inline(__always)
  mutating func decode(
    _ bytes: UnsafeRawPointer, count: Int, firstIndex: Int64, into requests: UnsafeMutablePointer<Request>
  ) -> (decoded: Int, problem: String?) {
    var cursor = bytes
    for offset in 0..<count {
      if let problem = decode(cursor, index: firstIndex + Int64(offset), into: &requests[offset]) {
        return (offset, problem)
      }
      cursor += Self.recordSize
    }
    return (count, nil)
  }
}

/// A streaming reader for formats made of fixed-size binary records.
///
/// A regular file whose size is not a whole number of records is rejected before any
/// request is read, naming the truncated record.
final class FixedRecordReader<Layout: RecordLayout>: TraceReader {
  private let file: ChunkedFile
  private var layout: Layout
  private(set) var requestsRead: Int64 = 0
  private var budget = ByteBudget()

  init(path: String, layout: Layout) throws(TraceError) {
    file = try ChunkedFile(path: path)
    self.layout = layout
    if let size = file.regularFileSize, size % Int64(Layout.recordSize) != 0 {
      let whole = size / Int64(Layout.recordSize)
      throw TraceError(
        .truncatedRecord, path: path, record: whole + 1,
        "truncated record: file ends \(size % Int64(Layout.recordSize)) bytes into a \(Layout.recordSize)-byte record")
    }
  }

  var path: String { file.path }
  var traits: TraceTraits { Layout.traits }
  var knownRequestCount: Int64? { file.regularFileSize.map { $0 / Int64(Layout.recordSize) } }

  /// Reads more of the file; a decoder's error names the record being read.
  private func refill() throws(TraceError) -> Bool {
    do { return try file.refill() } catch { throw error.located(at: requestsRead + 1) }
  }

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    let size = Layout.recordSize
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
        let count = min(file.available / size, requests.count - filled)
        let (decoded, problem) = layout.decode(
          file.cursor, count: count, firstIndex: requestsRead + 1, into: requests.baseAddress! + filled)
        for index in filled..<(filled + decoded) {
          if let problem = budget.add(requests[index].size) {
            throw TraceError(.malformedRecord, path: path, record: requestsRead + Int64(index - filled) + 1, problem)
          }
        }
        requestsRead += Int64(decoded)
        filled += decoded
        file.start += decoded * size
        if let problem {
          throw TraceError(.malformedRecord, path: path, record: requestsRead + 1, problem)
        }
      }
      return filled
    }
    return batch.count > 0
  }
}
