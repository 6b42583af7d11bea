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
}

/// A streaming reader for formats made of fixed-size binary records.
///
/// A regular file whose size is not a whole number of records is rejected before any
/// request is read, naming the truncated record.
final class FixedRecordReader<Layout: RecordLayout>: TraceReader {
  private let file: ChunkedFile
  private var layout: Layout
  private(set) var requestsRead: Int64 = 0

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

  func read(into batch: RequestBatch) throws(TraceError) -> Bool {
    let size = Layout.recordSize
    try batch.refill { (requests: UnsafeMutableBufferPointer<Request>) throws(TraceError) -> Int in
      var filled = 0
      while filled < requests.count {
        if file.available < size {
          if try file.refill() { continue }
          if file.available > 0 {
            throw TraceError(
              .truncatedRecord, path: path, record: requestsRead + 1,
              "truncated record: \(file.available) of \(size) bytes")
          }
          break
        }
        let count = min(file.available / size, requests.count - filled)
        var cursor = file.cursor
        for _ in 0..<count {
          let index = requestsRead + 1
          if let problem = layout.decode(cursor, index: index, into: &requests[filled]) {
            throw TraceError(.malformedRecord, path: path, record: index, problem)
          }
          requestsRead = index
          filled += 1
          cursor += size
        }
        file.start += count * size
      }
      return filled
    }
    return batch.count > 0
  }
}
